import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { checkRepository, type Finding } from "@/lib/content/check";
import { tempDir } from "@/lib/store/testing";
import * as notes from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publishRoute from "./notes/[id]/publish/route";
import * as threads from "./notes/[id]/threads/route";
import * as comments from "./notes/[id]/threads/[thread]/comments/route";
import * as resolve from "./notes/[id]/threads/[thread]/resolve/route";
import * as verdicts from "./notes/[id]/verdicts/route";
import * as closeRoute from "./phases/[slug]/close/route";
import * as reopenRoute from "./phases/[slug]/reopen/route";

/**
 * The app and content:check agree (issue 11): a whole editorial walk through the studio's route
 * handlers, against a real content repository, leaves a history the checker passes with zero
 * findings; and the same changes forged with plain git are each refused, naming file, line and rule.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
let seed: string;
beforeAll(async () => {
  f = await studioFixture();
  // The first request creates and seeds the repository; its import commit is where the walk starts.
  await notes.GET(request(f.author, "GET", "/api/studio/notes"), params({}));
  seed = git("rev-parse", "main");
});
afterAll(() => f.cleanup());

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const note = (id: string) => `/api/studio/notes/${id}`;
const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};

const api = {
  create: (c: Caller, body: unknown) => notes.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", note(id)), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", note(id), body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) => transitions.POST(request(c, "POST", `${note(id)}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publishRoute.POST(request(c, "POST", `${note(id)}/publish`, body), params({ id })).then(answer),
  thread: (c: Caller, id: string, body: unknown) => threads.POST(request(c, "POST", `${note(id)}/threads`, body), params({ id })).then(answer),
  reply: (c: Caller, id: string, thread: string, body: unknown) =>
    comments.POST(request(c, "POST", `${note(id)}/threads/${thread}/comments`, body), params({ id, thread })).then(answer),
  resolve: (c: Caller, id: string, thread: string) =>
    resolve.POST(request(c, "POST", `${note(id)}/threads/${thread}/resolve`, {}), params({ id, thread })).then(answer),
  verdict: (c: Caller, id: string, body: unknown) => verdicts.POST(request(c, "POST", `${note(id)}/verdicts`, body), params({ id })).then(answer),
  close: (c: Caller, slug: string, body: unknown) =>
    closeRoute.POST(request(c, "POST", `/api/studio/phases/${slug}/close`, body), params({ slug })).then(answer),
  reopen: (c: Caller, slug: string, body: unknown) =>
    reopenRoute.POST(request(c, "POST", `/api/studio/phases/${slug}/reopen`, body), params({ slug })).then(answer),
};

const fields = (title: string, phase: string, evidence = "The kernel trace of the pinned checkpoint shows no masked block loaded.") =>
  noteFields(title, { phase, sections: { rejectedShortcut: "Masking scores after loading every key.", evidence } });

/** Propose (or move) a draft to `to` and publish it, as an author does in the studio. */
async function moveAndPublish(id: string, to: string, extra: Record<string, string> = {}) {
  const moved = ok(await api.transition(f.author, id, { to, revision: (await api.read(f.author, id)).body.revision, ...extra }));
  return ok(await api.publish(f.author, id, { revision: moved.revision }));
}

describe("the studio's own history passes content:check", () => {
  let a: string;
  let b: string;

  it("refuses a New note with fields that name an unknown phase, as a save would (a rule create used to skip)", async () => {
    const refused = await api.create(f.author, { note: fields("Nowhere", "7 nowhere") });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: "unknown-phase",
      where: [{ field: "phase", message: expect.stringMatching(/unknown phase "7 nowhere"/) }],
    });
    expect(git("for-each-ref", "refs/heads/drafts/")).toBe("");
  });

  it("walks a note from New note to verified checkpoint, with a review thread and an approval", async () => {
    const created = ok(await api.create(f.author, { note: fields("Sparse masks skip blocks", "6 architecture") }), 201);
    a = created.id;
    // The answer is built from the request's own context, and says exactly what a fresh read says.
    expect(created).toEqual(ok(await api.read(f.author, a)));
    const claimed = ok(await api.create(f.author, {}), 201);
    expect(claimed).toEqual(ok(await api.read(f.author, claimed.id)));
    // This one stays a draft: the whole-repository check below reads its branch too.
    ok(await api.save(f.author, claimed.id, { revision: claimed.revision, note: fields("Pinned kernels per backend", "6 architecture") }));
    const saved = ok(await api.save(f.author, a, { revision: created.revision, note: { ...fields("Sparse masks skip whole blocks", "6 architecture") } }));
    expect(saved.saved).toBe(true);
    await moveAndPublish(a, "hypothesis");
    expect(git("show", `main:notes/${a}.md`)).toMatch(/^status: hypothesis$/m);

    // An edit after publication starts a new draft; a reviewer comments on it, the author answers.
    const opened = ok(await api.read(f.author, a));
    const edited = ok(
      await api.save(f.author, a, {
        revision: opened.revision,
        note: fields("Sparse masks skip whole blocks", "6 architecture", "Kernel traces on two backends show no masked block loaded."),
      }),
    );
    const thread = ok(await api.thread(f.reviewer, a, { section: "evidence", revision: edited.noteRevision, text: "Which backends?" }), 201);
    ok(await api.reply(f.author, a, thread.thread, { text: "The two named in the pinned checkpoint." }), 201);
    // Review writes are judged by the same acceptance function: a reply that pastes a local path is
    // refused by the archive policy (refs/reviews travels with every clone), and nothing is written.
    const reviewHead = git("rev-parse", `refs/reviews/${a}`);
    const pasted = await api.reply(f.author, a, thread.thread, { text: "Both traces are in\n/home/ada/runs/trace.json" });
    expect(pasted.status).toBe(422);
    expect(pasted.body.error).toMatchObject({ code: "policy", where: [{ field: "text", line: 2, rule: "local-path" }] });
    expect(git("rev-parse", `refs/reviews/${a}`)).toBe(reviewHead);
    ok(await api.resolve(f.reviewer, a, thread.thread));
    ok(await api.verdict(f.reviewer, a, { verdict: "approve", revision: edited.noteRevision }), 201);

    const published = await moveAndPublish(a, "verified-checkpoint");
    expect(published.view.status).toBe("verified-checkpoint");
    // The approval is in the publish commit, where git itself reads it.
    const trailers = execFileSync("git", ["interpret-trailers", "--parse"], { input: git("log", "-1", "--format=%B", "main"), encoding: "utf8" });
    expect(trailers).toMatch(new RegExp(`^Draft-revision: [0-9a-f]{40}$`, "m"));
    expect(trailers).toMatch(/^Approved-by: rita [0-9a-f]{12}$/m);
  });

  it("publishes a new note straight to verified: proposed on its branch, approved, promoted, published once", async () => {
    const created = ok(await api.create(f.author, { note: fields("Experts prefetched by router history", "6 architecture") }), 201);
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
    ok(await api.verdict(f.reviewer, created.id, { verdict: "approve", revision: proposed.noteRevision }), 201);
    const published = await moveAndPublish(created.id, "verified-checkpoint");
    expect(published.view.published).toBe(true);
    expect(git("show", `main:notes/${created.id}.md`)).toMatch(/^status: verified-checkpoint$/m);
  });

  it("supersedes a hypothesis by a newer published note, and retracts a verified one with a reason", async () => {
    const created = ok(await api.create(f.secondAuthor, { note: fields("Prefetch by predicted expert", "8–11 performance architecture") }), 201);
    b = created.id;
    const proposed = ok(await api.transition(f.secondAuthor, b, { to: "hypothesis", revision: created.revision }));
    ok(await api.publish(f.secondAuthor, b, { revision: proposed.revision }));

    await moveAndPublish("AFN-019", "superseded", { superseded_by: b });
    await moveAndPublish("AFN-014", "retracted", { reason: "The provenance label was applied to the wrong fixture set." });
    expect(git("show", "main:notes/AFN-019.md")).toMatch(new RegExp(`^superseded_by: ${b}$`, "m"));
  });

  it("closes one phase with its delta and one with a worded no-delta record, then reopens that one", async () => {
    const six = ok(await api.close(f.author, "6-architecture", {}));
    expect(six.phase.closeout.notes).toContain(a);
    ok(await api.close(f.author, "2", { noDeltaWhy: "Phase 2 only collected measurements; no decision changed in it." }));
    ok(await api.reopen(f.author, "2", { reason: "A measurement needs to be redone before anything is decided." }));
  });

  it("leaves a repository with zero findings: main from its first commit, every draft branch and every review record", async () => {
    const { checked, findings } = await checkRepository(f.gitdir, { all: true });
    expect(findings).toEqual([]);
    // Main: the seed and, after it, the walk's publishes and phase commits; the draft still open: its one save.
    const mainCommits = Number(git("rev-list", "--first-parent", "--count", "main"));
    expect(git("rev-list", "--first-parent", "--count", `${seed}..main`)).toBe("9");
    expect(git("for-each-ref", "--format=%(refname)", "refs/heads/drafts/")).toMatch(/^refs\/heads\/drafts\/AFN-\d+$/);
    expect(checked).toBe(mainCommits + 1);
  });
});

describe("the same changes forged with plain git are refused", () => {
  let work: string;
  beforeAll(() => {
    work = tempDir("agreement-forge");
    execFileSync("git", ["clone", "--quiet", f.gitdir, work]);
    execFileSync("git", ["-C", work, "config", "user.name", "Mallory"]);
    execFileSync("git", ["-C", work, "config", "user.email", "mallory@example.org"]);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  /** One commit on a branch from main, pushed to the content repository, and checked there. */
  async function forge(
    branch: string,
    change: (file: (p: string) => { text: string; write: (t: string) => void }) => void,
    message = "A change made with plain git",
  ): Promise<Finding[]> {
    const g = (...args: string[]) => execFileSync("git", ["-C", work, ...args], { encoding: "utf8" });
    g("fetch", "--quiet", "origin");
    g("checkout", "--quiet", "-B", branch, "origin/main");
    change((p) => {
      const full = path.join(work, p);
      return { text: fs.existsSync(full) ? fs.readFileSync(full, "utf8") : "", write: (t) => fs.writeFileSync(full, t) };
    });
    g("add", "-A");
    g("commit", "--quiet", "-m", message);
    g("push", "--quiet", "--force", "origin", `HEAD:refs/heads/forged/${branch}`);
    return (await checkRepository(f.gitdir, { ref: `refs/heads/forged/${branch}` })).findings;
  }

  const lineOf = (text: string, prefix: string) => text.split("\n").findIndex((l) => l.startsWith(prefix)) + 1;

  /** The one finding the forgery must produce: in this file, at this line, by this rule. */
  function expectRefused(findings: Finding[], file: string, line: number, rule: string, message: RegExp) {
    expect(findings, JSON.stringify(findings, null, 2)).toContainEqual(expect.objectContaining({ file, line, rule, message: expect.stringMatching(message) }));
  }

  const promote = (text: string) => text.replace(/^status: hypothesis$/m, "status: verified-checkpoint");

  it("verified with no approval", async () => {
    let text = "";
    const findings = await forge("verified-bare", (file) => {
      const n = file("notes/AFN-021.md");
      text = promote(n.text);
      n.write(text);
    });
    expectRefused(
      findings,
      "notes/AFN-021.md",
      lineOf(text, "status:"),
      "review",
      /^hypothesis → verified-checkpoint: no approval of revision.*names no Approved-by trailer/,
    );
  });

  it("verified with a made-up Approved-by trailer", async () => {
    let text = "";
    const findings = await forge(
      "verified-made-up",
      (file) => {
        const n = file("notes/AFN-021.md");
        text = promote(n.text);
        n.write(text);
      },
      "Promote AFN-021\n\nApproved-by: rita 0123456789ab",
    );
    expectRefused(
      findings,
      "notes/AFN-021.md",
      lineOf(text, "status:"),
      "review",
      /Approved-by rita 0123456789ab: refs\/reviews\/AFN-021 has no verdict record 0123456789ab/,
    );
    expectRefused(findings, "notes/AFN-021.md", lineOf(text, "status:"), "review", /no approval of revision/);
  });

  it("a retraction without a reason", async () => {
    let text = "";
    const findings = await forge("retract-bare", (file) => {
      const n = file("notes/AFN-005.md");
      text = n.text.replace(/^status: .*$/m, "status: retracted");
      n.write(text);
    });
    expectRefused(findings, "notes/AFN-005.md", lineOf(text, "status:"), "status", /retraction needs a reason/);
  });

  it("a boundary removed without a reason", async () => {
    let text = "";
    const findings = await forge("boundary-bare", (file) => {
      const n = file("notes/AFN-002.md");
      text = n.text.replace("boundaries:\n  - structural-only\n", "boundaries: []\n");
      expect(text).not.toBe(n.text);
      n.write(text);
    });
    expectRefused(findings, "notes/AFN-002.md", lineOf(text, "boundaries:"), "boundary", /removing the "structural.only" boundary needs a reason/i);
  });

  it("a phase closed without a closeout record", async () => {
    let text = "";
    const findings = await forge("close-bare", (file) => {
      const n = file("phases/4.yaml");
      text = n.text.replace("status: open", "status: closed\nclosed: 2026-12-02");
      n.write(text);
    });
    expectRefused(findings, "phases/4.yaml", lineOf(text, "status:"), "closeout", /closed phase needs its closed date and its closeout record/);
  });

  it("review records written with plain git: a verdict by the note's own author, a reply pasting a local path", async () => {
    const ref = git("for-each-ref", "--format=%(refname)", "refs/reviews/")
      .split("\n")
      .find((r) => git("show", `${r}:records.log`).includes("threads/"));
    if (!ref) throw new Error("the walk left no review thread");
    const id = ref.slice("refs/reviews/".length);
    const listed = git("show", `${ref}:records.log`).split("\n");
    const thread = listed.find((p) => p.startsWith("threads/"))?.split("/")[1] ?? "";
    const approved = JSON.parse(git("show", `${ref}:${listed.find((p) => p.startsWith("verdicts/"))}`)) as { revision: string };
    const g = (...args: string[]) => execFileSync("git", ["-C", work, ...args], { encoding: "utf8" });
    g("fetch", "--quiet", "origin", `+${ref}:refs/forged/review`);
    g("checkout", "--quiet", "-B", "forged-review", "refs/forged/review");
    const at = "2026-12-03T10:00:00.000Z";
    const by = { id: "ada", name: "ada" };
    const verdict = { v: 1, id: "aaaaaaaaaaaa", at, by, kind: "verdict", revision: approved.revision, verdict: "approve" };
    const reply = { v: 1, id: "bbbbbbbbbbbb", at, by, kind: "reply", thread, text: "The traces are in\n/home/ada/runs/trace.json" };
    const files = [`verdicts/20261203T100000000Z-${verdict.id}.json`, `threads/${thread}/20261203T100000000Z-${reply.id}.json`];
    fs.mkdirSync(path.join(work, "threads", thread), { recursive: true });
    fs.mkdirSync(path.join(work, "verdicts"), { recursive: true });
    fs.writeFileSync(path.join(work, files[0]!), `${JSON.stringify(verdict, null, 2)}\n`);
    fs.writeFileSync(path.join(work, files[1]!), `${JSON.stringify(reply, null, 2)}\n`);
    fs.appendFileSync(path.join(work, "records.log"), `${files.join("\n")}\n`);
    g("add", "-A");
    g("commit", "--quiet", "-m", "Approve my own note");
    g("push", "--quiet", "--force", "origin", `HEAD:${ref}`);
    const { findings } = await checkRepository(f.gitdir, { all: true });
    // Lines of the files as written above: "by" opens line 5, "text" is line 11.
    expectRefused(findings, `${ref}:${files[0]}`, 5, "self-review", new RegExp(`^ada wrote a revision of ${id}`));
    expectRefused(findings, `${ref}:${files[1]}`, 11, "archive-policy", /local file path/i);
    expect(findings.filter((x) => !x.file.startsWith(ref))).toEqual([]);
  });

  it("a draft-status note on main", async () => {
    let text = "";
    const findings = await forge("draft-on-main", (file) => {
      text = file("notes/AFN-021.md")
        .text.replace(/^id: AFN-021$/m, "id: AFN-099")
        .replace(/^status: .*$/m, "status: draft");
      file("notes/AFN-099.md").write(text);
    });
    expectRefused(findings, "notes/AFN-099.md", lineOf(text, "status:"), "status", /a draft is not published/);
  });
});
