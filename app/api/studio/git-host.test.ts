import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { getPublishedView } from "@/lib/content/published";
import { openMirror, RemoteRewoundError, resetRemoteConfig } from "@/lib/store";
import { git, tempDir } from "@/lib/store/testing";
import { parseNote } from "@/lib/notes/markdown";
import { getContentStore } from "@/lib/working-copy/content-store";
import { answer, params, request, studioFixture } from "@/lib/testing/studio";
import { noteFields } from "@/lib/testing/studio";
import * as list from "./notes/route";
import * as one from "./notes/[id]/route";
import * as transitions from "./notes/[id]/transitions/route";
import * as publish from "./notes/[id]/publish/route";
import * as phases from "./phases/route";

/**
 * The git host is not trusted blindly. What is pushed to it from outside the app reaches every
 * instance, but a commit on main the rules refuse (a promotion with a made-up approval) is not
 * served as published, and a main moved back by a force-push is not followed unless the site says
 * so; each is logged once and shown in the studio. Git's own http-backend is the host.
 */

const USER = "fn";
const PASSWORD = "git-host-password";
const saved = { ...process.env };
let server: GitServer;
let root: string;
let remoteDir: string;
let f: Awaited<ReturnType<typeof studioFixture>>;

/** A clone of the host's repository, as someone outside the app works in it. */
let work: string;
const outside = (...args: string[]) => git(work, ...args);

/** Commit `files` on main with plain git and push it to the host (with `--force` when asked). */
function pushFromOutside(files: Record<string, string>, message: string): string {
  outside("fetch", "--quiet", "origin");
  outside("checkout", "--quiet", "-B", "main", "origin/main");
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(work, file), text);
  outside("add", "-A");
  outside("-c", "user.name=Mallory", "-c", "user.email=mallory@example.org", "commit", "--quiet", "-m", message);
  outside("push", "--quiet", "origin", "HEAD:refs/heads/main");
  return outside("rev-parse", "HEAD");
}

const fileAt = (rev: string, file: string) => git(remoteDir, "show", `${rev}:${file}`);
const studioList = () => list.GET(request(f.author, "GET", "/api/studio/notes"), params({})).then(answer);

beforeAll(async () => {
  root = tempDir("git-host");
  fs.mkdirSync(path.join(root, "repos"));
  remoteDir = path.join(root, "repos", "content.git");
  git(root, "init", "--bare", "-q", "-b", "main", remoteDir);
  server = await startGitServer({ root: path.join(root, "repos"), user: USER, password: PASSWORD });
  process.env.CONTENT_REMOTE = `${server.origin}/content.git`;
  process.env.CONTENT_REMOTE_USER = USER;
  process.env.CONTENT_REMOTE_TOKEN = PASSWORD;
  process.env.CONTENT_POLL_SECONDS = "3600";
  delete process.env.ACCOUNTS_REMOTE;
  delete process.env.ALLOW_MAIN_REWIND;
  resetRemoteConfig();
  f = await studioFixture();
  await getContentStore(); // gives the empty host the seed
  work = tempDir("git-host-work");
  git(work, "clone", "--quiet", remoteDir, ".");
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

afterAll(async () => {
  process.env = saved;
  resetRemoteConfig();
  await server?.stop();
  f?.cleanup();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("a commit on main the rules refuse, pushed to the git host", () => {
  it("is not served as published: the last accepted commit is, the refusal is logged once and shown in the studio, until it is undone", async () => {
    const store = await getContentStore();
    const before = await getPublishedView();
    expect(before.byId.get("AFN-019")?.status).toBe("hypothesis");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);

    // A promotion to verified with a made-up approval: no such verdict exists on refs/reviews/AFN-019.
    const original = fileAt("main", "notes/AFN-019.md");
    const forged = pushFromOutside(
      { "notes/AFN-019.md": original.replace("status: hypothesis", "status: verified-checkpoint") },
      "Promote AFN-019\n\nApproved-by: rita 0123456789ab",
    );
    await store.remote!.sync();
    expect(await store.resolve("refs/heads/main")).toBe(forged);

    const view = await getPublishedView();
    expect(view.commit).toBe(before.commit);
    expect(view.byId.get("AFN-019")?.status).toBe("hypothesis");
    await getPublishedView();
    const logged = errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("refused by the rules"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toContain(forged);
    expect(logged[0]).toMatch(/notes\/AFN-019\.md:\d+: (review|status):/);

    const shown = await studioList();
    expect(shown.status).toBe(200);
    expect(shown.body.main.refused).toMatchObject({ commit: forged, file: "notes/AFN-019.md", served: before.commit });

    // A good change on top does not make the refused one published: the refused change is still there.
    const tagged = fileAt("main", "notes/AFN-014.md").replace(/^tags:\n/m, "tags:\n  - outside\n");
    expect(tagged).toContain("- outside");
    pushFromOutside({ "notes/AFN-014.md": tagged }, "Tag AFN-014");
    await store.remote!.sync();
    expect((await getPublishedView()).commit).toBe(before.commit);

    // A studio write on main would land on top of the refused change and never be served: 409, nothing written.
    const created = await list.POST(request(f.author, "POST", "/api/studio/notes", {}), params({})).then(answer);
    const id: string = created.body.id;
    const saved = await one
      .PUT(
        request(f.author, "PUT", `/api/studio/notes/${id}`, { revision: created.body.revision, note: noteFields("Blocked by a refused main") }),
        params({ id }),
      )
      .then(answer);
    const proposed = await transitions
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/transitions`, { to: "hypothesis", revision: saved.body.revision }), params({ id }))
      .then(answer);
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
    const tip = await store.resolve("refs/heads/main");
    const published = await publish
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/publish`, { revision: proposed.body.revision }), params({ id }))
      .then(answer);
    expect(published.status, JSON.stringify(published.body)).toBe(409);
    expect(published.body.error.code).toBe("main-refused");
    expect(published.body.error.message).toContain(forged.slice(0, 12));
    expect(published.body.error.message).toContain("notes/AFN-019.md");
    const phase = await phases.POST(request(f.author, "POST", "/api/studio/phases", { name: "Blocked phase" }), params({})).then(answer);
    expect(phase.status, JSON.stringify(phase.body)).toBe(409);
    expect(phase.body.error.code).toBe("main-refused");
    expect(await store.resolve("refs/heads/main")).toBe(tip);

    // Undone with plain git: the new main is served, with the good change.
    const reverted = pushFromOutside({ "notes/AFN-019.md": original }, "Undo the promotion of AFN-019");
    await store.remote!.sync();
    const after = await getPublishedView();
    expect(after.commit).toBe(reverted);
    expect(after.byId.get("AFN-014")?.tags).toContain("outside");
    expect(after.byId.get("AFN-019")?.status).toBe("hypothesis");
    expect((await studioList()).body.main.refused).toBeNull();
    // And the draft blocked above publishes now.
    const retried = await publish
      .POST(request(f.author, "POST", `/api/studio/notes/${id}/publish`, { revision: proposed.body.revision }), params({ id }))
      .then(answer);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect((await getPublishedView()).byId.has(id)).toBe(true);
    outside("fetch", "--quiet", "origin"); // the work clone holds what the app pushed, as the next test expects
  });
});

describe("main moved back on the git host (a force-push)", () => {
  it("is refused: this instance keeps serving and mirroring the main it had, logs it, shows it, and refuses writes to main until the host is restored", async () => {
    const store = await getContentStore();
    const head = (await store.resolve("refs/heads/main"))!;
    const served = (await getPublishedView()).commit;
    const back = git(remoteDir, "rev-parse", "main~2");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    outside("push", "--quiet", "--force", "origin", `${back}:refs/heads/main`);

    await store.remote!.sync();
    await store.remote!.sync();
    expect(await store.resolve("refs/heads/main")).toBe(head);
    expect((await getPublishedView()).commit).toBe(served);
    const logged = errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("does not descend"));
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(/refused/);
    expect((await studioList()).body.main.rewind).toMatchObject({ from: head, to: back, followed: false });

    const write = store.commit({
      ref: "refs/heads/main",
      expected: head,
      author: { name: "ada", email: "ada@example.org" },
      message: "x",
      changes: { "notes/x.txt": "x" },
    });
    await expect(write).rejects.toBeInstanceOf(RemoteRewoundError);
    expect(git(remoteDir, "rev-parse", "main")).toBe(back);

    // The host's main restored: followed again, nothing to show.
    outside("push", "--quiet", "--force", "origin", `${head}:refs/heads/main`);
    await store.remote!.sync();
    expect((await studioList()).body.main.rewind).toBeNull();
  });

  it("is followed where the site allows it (ALLOW_MAIN_REWIND=1), logged loudly", async () => {
    const mirror = await openMirror(path.join(root, "follows.git"), {
      remote: { url: `${server.origin}/content.git`, user: USER, token: PASSWORD, namespaces: ["refs/heads/"], mainRewind: "follow" },
      seedDir: null,
      label: "an instance that follows rewinds",
      pollSeconds: 3600,
      parse: parseNote,
    });
    const head = (await mirror.resolve("refs/heads/main"))!;
    const back = git(remoteDir, "rev-parse", "main~1");
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    outside("push", "--quiet", "--force", "origin", `${back}:refs/heads/main`);
    try {
      await mirror.remote!.sync();
      expect(await mirror.resolve("refs/heads/main")).toBe(back);
      expect(errors.mock.calls.map((c) => String(c[0])).filter((m) => m.includes("following it because ALLOW_MAIN_REWIND=1"))).toHaveLength(1);
      expect(mirror.remote!.rewind).toMatchObject({ local: head, remote: back, followed: true });
    } finally {
      outside("push", "--quiet", "--force", "origin", `${head}:refs/heads/main`);
    }
  });
});
