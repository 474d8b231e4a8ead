import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { strToU8, zipSync, type Zippable } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { sourceRepo, type SourceRepo } from "@/lib/import/testing";
import { acquireRefLock } from "@/lib/store/ref-update";
import { getContentStore } from "@/lib/working-copy/content-store";
import { answer, BASE, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import * as uploads from "./uploads/route";
import * as plan from "./plan/route";
import * as jobs from "./jobs/route";
import * as job from "./jobs/[id]/route";

/**
 * The studio's Import page's API against a real content repository: a zip uploaded and planned
 * (nothing written), a repository run as a job polled to its end (history, drafts, the report),
 * and the refusals: a reviewer, a URL the server must not read, a zip that reaches outside its
 * folder, and a run that fails while moving its refs, which leaves every branch as it was.
 */

const FIXTURES = path.resolve(__dirname, "../../../../lib/import/fixtures");
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), "utf8");
const ann = { name: "Ann Example", email: "ann@example.org" };
const bo = { name: "Bo Example", email: "bo@example.org" };
const UPLOADS = path.join(os.tmpdir(), "field-notes-import-uploads");

let f: Awaited<ReturnType<typeof studioFixture>>;
let source: SourceRepo;

beforeAll(async () => {
  process.env.IMPORT_ALLOW_LOCAL = "1";
  f = await studioFixture();
  await getContentStore();
  source = sourceRepo("studio-import-source");
  source.commit({ "docs/adr/0006-cache-sessions.md": fixture("0006-cache-sessions.md") }, ann, "2022-03-01T10:00:00+00:00", "Cache sessions");
  source.commit(
    { "docs/adr/0007-logging.md": fixture("0007-logging.md"), "docs/adr/README.md": fixture("README.md") },
    bo,
    "2022-04-01T10:00:00+02:00",
    "Logging",
  );
  source.commit(
    { "docs/adr/0007-logging.md": `${fixture("0007-logging.md")}\nLevels are named, never numbered.\n` },
    ann,
    "2022-05-01T10:00:00+00:00",
    "Logging levels",
  );
});
afterAll(() => {
  delete process.env.IMPORT_ALLOW_LOCAL;
  resetConfig();
  f.cleanup();
});

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const refs = () => git("for-each-ref", "--format=%(refname) %(objectname)");

function uploadRequest(c: Caller, bytes: Uint8Array, name: string): Request {
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(bytes)], { type: "application/zip" }), name);
  return new Request(`${BASE}/api/studio/import/uploads`, { method: "POST", headers: { ...c.headers, host: "studio.test" }, body: form });
}
const api = {
  upload: (c: Caller, bytes: Uint8Array, name = "team-adrs.zip") => uploads.POST(uploadRequest(c, bytes, name), params({})).then(answer),
  plan: (c: Caller, body: unknown) => plan.POST(request(c, "POST", "/api/studio/import/plan", body), params({})).then(answer),
  start: (c: Caller, body: unknown) => jobs.POST(request(c, "POST", "/api/studio/import/jobs", body), params({})).then(answer),
  job: (c: Caller, id: string) => job.GET(request(c, "GET", `/api/studio/import/jobs/${id}`), params({ id })).then(answer),
};
const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

/** Polls a job until it ends (as the page does), keeping every progress seen. */
async function finish(id: string): Promise<{ end: Json; seen: Json[] }> {
  const seen: Json[] = [];
  for (let i = 0; i < 600; i++) {
    const view = ok(await api.job(f.author, id));
    seen.push(view.progress);
    if (view.state !== "running") return { end: view, seen };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`job ${id} still running after 30 s`);
}

const folderZip = (extra: Zippable = {}) =>
  zipSync({
    "team-adrs/docs/adr/0006-cache-sessions.md": strToU8(fixture("0006-cache-sessions.md")),
    "team-adrs/docs/adr/0007-logging.md": strToU8(fixture("0007-logging.md")),
    "team-adrs/docs/adr/README.md": strToU8(fixture("README.md")),
    ...extra,
  });

describe("the studio's import API", () => {
  it("refuses reviewers everywhere (403), whatever the body", async () => {
    const body = { source: { kind: "url", url: pathToFileURL(source.dir).href } };
    expect((await api.upload(f.reviewer, folderZip())).status).toBe(403);
    expect((await api.plan(f.reviewer, body)).status).toBe(403);
    expect((await api.start(f.reviewer, body)).status).toBe(403);
    expect((await api.start(f.anonymous, body)).status).toBe(401);
  });

  it("refuses a URL the server must not read with a 422 beside the URL field, and writes nothing", async () => {
    const before = refs();
    for (const url of [
      "ftp://example.org/adrs.git",
      "ssh://git@example.org/adrs.git",
      "ext::sh -c touch% /tmp/pwned",
      "/srv/adrs",
      "--upload-pack=touch",
      "https://",
    ]) {
      const r = await api.plan(f.author, { source: { kind: "url", url } });
      expect(r.status, url).toBe(422);
      expect(r.body.error.code).toBe("invalid-import");
      expect(r.body.error.where[0].field).toBe("source.url");
    }
    // file:// only when the server allows local paths.
    process.env.IMPORT_ALLOW_LOCAL = "0";
    resetConfig();
    try {
      const r = await api.start(f.author, { source: { kind: "url", url: pathToFileURL(source.dir).href } });
      expect(r.status).toBe(422);
      expect(r.body.error.where).toEqual([expect.objectContaining({ field: "source.url", message: expect.stringMatching(/IMPORT_ALLOW_LOCAL/) })]);
    } finally {
      process.env.IMPORT_ALLOW_LOCAL = "1";
      resetConfig();
    }
    // Every field's problem at once, each named.
    const many = await api.plan(f.author, { source: { kind: "url", url: "gopher://x" }, prefix: "adr", path: "../etc", status: ["Accepted=verified"] });
    expect(many.body.error.where.map((w: Json) => w.field)).toEqual(["source.url", "path", "prefix", "status.0"]);
    // A repository that is not there: the clone's own words, beside the URL.
    const missing = await api.plan(f.author, { source: { kind: "url", url: pathToFileURL(path.join(source.dir, "nothing-here")).href } });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatchObject({ code: "import-source", where: [{ field: "source.url" }] });
    expect(refs()).toBe(before);
  });

  it("refuses a zip whose entries reach outside its folder, or link, or unpack past the limit, and keeps nothing of it", async () => {
    const kept = () => (fs.existsSync(UPLOADS) ? fs.readdirSync(UPLOADS).sort() : []);
    const before = kept();
    const cases: [string, Uint8Array][] = [
      ["../ entry", zipSync({ "adrs/0001-a.md": strToU8("# 1. A\n"), "../evil.md": strToU8("x") })],
      ["nested ../", folderZip({ "team-adrs/docs/../../../evil.md": strToU8("x") })],
      ["absolute", zipSync({ "/etc/evil.md": strToU8("x") })],
      ["symlink", zipSync({ "adrs/0001-a.md": [strToU8("/etc/passwd"), { os: 3, attrs: (0o120777 << 16) >>> 0 }] })],
      ["bomb", zipSync({ "adrs/0001-a.md": [new Uint8Array(101 * 1024 * 1024), { level: 1 }] })],
    ];
    for (const [label, bytes] of cases) {
      const r = await api.upload(f.author, bytes);
      expect(r.status, label).toBe(422);
      expect(r.body.error.code, label).toBe("bad-zip");
      expect(r.body.error.where[0].field, label).toBe("file");
    }
    expect((await api.upload(f.author, strToU8("not a zip at all"), "notes.zip")).body.error.code).toBe("bad-zip");
    // Nothing new kept (other test files' uploads share the folder and may come and go meanwhile).
    expect(kept().filter((id) => !before.includes(id))).toEqual([]);
    expect(fs.existsSync(path.join(os.tmpdir(), "evil.md"))).toBe(false);
  });

  it("plans an uploaded zip as --plan prints it, writing nothing", async () => {
    const before = refs();
    const upload = ok(await api.upload(f.author, folderZip({ "team-adrs/.git/config": strToU8("[core]\n\tfsmonitor = touch /tmp/pwned\n") })), 201);
    expect(upload).toMatchObject({ name: "team-adrs", files: 3, leftOut: [".git"] });
    const planned = ok(await api.plan(f.author, { source: { kind: "upload", upload: upload.id }, status: ["Proposed=hypothesis"] }));
    expect(planned).toMatchObject({ source: "team-adrs", folder: "docs/adr", branch: "team-adrs", commits: 2 });
    expect(planned.records.map((r: Json) => [r.id, r.file, r.format, r.status.landed])).toEqual([
      ["ADR-006", "docs/adr/0006-cache-sessions.md", "front-matter", "hypothesis"],
      ["ADR-007", "docs/adr/0007-logging.md", "front-matter", "draft"],
    ]);
    expect(planned.records[0].filled).toContainEqual({ field: "Invariant", from: ["Invariant"] });
    expect(planned.records[1].empty).toContain("Invariant");
    expect(planned.skipped).toEqual([expect.objectContaining({ file: "docs/adr/README.md" })]);
    expect(planned.mapping).toMatch(/proposed → hypothesis/);
    // A zip of the records folder itself: its files are the records.
    const bare = ok(await api.upload(f.author, zipSync({ "adr/0006-cache-sessions.md": strToU8(fixture("0006-cache-sessions.md")) }), "adr.zip"), 201);
    const flat = ok(await api.plan(f.author, { source: { kind: "upload", upload: bare.id } }));
    expect(flat).toMatchObject({ folder: ".", records: [{ id: "ADR-006", file: "0006-cache-sessions.md" }] });
    expect(refs()).toBe(before);
  });

  it("runs a repository's import as a job whose progress reaches its totals, and answers the report with links to the drafts", async () => {
    const body = { source: { kind: "url", url: pathToFileURL(source.dir).href } };
    const started = ok(await api.start(f.author, body), 202);
    expect(started).toMatchObject({ state: "running", by: "ada" });
    // One at a time.
    const second = await api.start(f.secondAuthor, body);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("busy");

    const { end, seen } = await finish(started.id);
    expect(end.state, JSON.stringify(end.error)).toBe("done");
    expect(end.progress).toEqual({ stage: "done", records: { done: 2, total: 2 }, commits: { done: 3, total: 3 } });
    expect(seen.every((p: Json) => p.commits.done <= p.commits.total)).toBe(true);
    const report = end.result;
    expect(report.records.map((r: Json) => [r.id, r.status.landed])).toEqual([
      ["ADR-006", "hypothesis"],
      ["ADR-007", "draft"],
    ]);
    expect(report.links).toEqual([
      { id: "ADR-006", href: null, where: "import-branch" },
      { id: "ADR-007", href: "/studio/notes/ADR-007", where: "draft" },
    ]);
    // The history came with it: one commit per source commit, with its author and the trailer.
    const drafts = git("log", "--format=%an|%s|%(trailers:key=Imported-from,valueonly)", "refs/heads/drafts/ADR-007").split("\n").filter(Boolean);
    expect(drafts.slice(0, 2)).toEqual([
      "Ann Example|Logging levels|" + source.git("rev-parse", "HEAD"),
      "Bo Example|Logging|" + source.git("rev-parse", "HEAD~1"),
    ]);
    expect(git("log", "--format=%an", "refs/heads/imports/" + report.branch, "--", "notes/ADR-006.md")).toBe("Ann Example");
    expect(git("for-each-ref", "refs/import-work/")).toBe("");
  });

  it("leaves every branch as it was when a run fails while moving its refs", async () => {
    const again = sourceRepo("studio-import-failing");
    again.commit({ "adr/0011-cache-sessions.md": fixture("0006-cache-sessions.md") }, ann, "2022-03-01T10:00:00+00:00", "Cache sessions");
    again.commit({ "adr/0012-logging.md": fixture("0007-logging.md") }, bo, "2022-04-01T10:00:00+00:00", "Logging");
    const before = refs();
    // A live writer holds the draft's ref while the run moves its refs (never taken from it, however long the run takes).
    const lock = await acquireRefLock(f.gitdir, "refs/heads/drafts/ADR-012");
    try {
      const started = ok(await api.start(f.author, { source: { kind: "url", url: pathToFileURL(again.dir).href } }), 202);
      const { end } = await finish(started.id);
      expect(end.state).toBe("failed");
      expect(end.error).toMatchObject({ code: "internal" });
    } finally {
      await lock.release();
    }
    // The import's branch was moved before the draft's ref refused: it is gone again, and no work ref is left.
    expect(refs()).toBe(before);
  }, 60_000);
});
