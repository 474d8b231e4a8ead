import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { openMirror } from "./mirror";
import { afterRejection, RemoteUnavailableError } from "./remote";
import { fsck, git, noteFile, seedFolder, tempDir } from "./testing";
import { RefConflictError, type ContentStore } from "./types";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

/**
 * Two local mirrors of one remote served by git's own http-backend: every write reaches the remote
 * before the local ref moves, a push refused because the branch moved is rebuilt on the new tip
 * when the remote touched none of its files and is a conflict when it did, and a remote that is
 * down leaves every local ref where it was.
 */

const USER = "fn";
const PASSWORD = "s3cret-remote-password";
const person = { name: "Ada", email: "ada@users.field-notes.invalid" };
let server: GitServer;
let root: string;
let remoteDir: string;
let a: ContentStore<Note>;
let b: ContentStore<Note>;

/** Ada writes one note file on `ref`, based on `expected` (and on `parent`, for a new branch). */
const writeNote = (store: ContentStore<Note>, at: { ref: string; expected: string | null; parent?: string }, id: string, summary?: string) =>
  store.commit({ ...at, author: person, message: `Write ${id}`, changes: { [`notes/${id}.md`]: noteFile(id, summary) } });

const remoteOf = (ref: string) => {
  try {
    return git(remoteDir, "rev-parse", "--verify", "-q", ref);
  } catch {
    return null;
  }
};

beforeAll(async () => {
  root = tempDir("remote");
  remoteDir = path.join(root, "content.git");
  git(root, "init", "--bare", "-q", "-b", "main", remoteDir);
  server = await startGitServer({ root, user: USER, password: PASSWORD });
  const remote = { url: `${server.origin}/content.git`, user: USER, token: PASSWORD, namespaces: ["refs/heads/", "refs/reviews/"] };
  const seedDir = seedFolder();
  // The first instance finds the remote empty and gives it the seed; the second clones it.
  a = await openMirror(path.join(root, "a.git"), { remote, seedDir, label: "test A", pollSeconds: 3600, parse: parseNote });
  b = await openMirror(path.join(root, "b.git"), { remote, seedDir: null, label: "test B", pollSeconds: 3600, parse: parseNote });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("a remote as the shared truth", () => {
  it("clones the remote on first start and pushes every write before moving the local ref", async () => {
    expect(await a.resolve("refs/heads/main")).toBe(remoteOf("refs/heads/main"));
    expect(await b.resolve("refs/heads/main")).toBe(remoteOf("refs/heads/main"));
    const main = (await a.resolve("refs/heads/main"))!;
    const saved = await writeNote(a, { ref: "refs/heads/drafts/AFN-001", expected: null, parent: main }, "AFN-001", "Saved through A.");
    expect(remoteOf("refs/heads/drafts/AFN-001")).toBe(saved.commit);
    await b.remote!.sync();
    expect(await b.resolve("refs/heads/drafts/AFN-001")).toBe(saved.commit);
  });

  it("rebuilds a change on the new tip when the remote moved without touching its file", async () => {
    const seen = (await b.resolve("refs/heads/main"))!;
    const first = await writeNote(a, { ref: "refs/heads/main", expected: seen }, "AFN-002", "Published through A.");
    // B has not fetched: it commits on the main it read, and its push is refused, then rebuilt.
    const second = await writeNote(b, { ref: "refs/heads/main", expected: seen }, "AFN-003", "Published through B.");
    expect(second.parents).toEqual([first.commit]);
    expect(remoteOf("refs/heads/main")).toBe(second.commit);
    expect(git(remoteDir, "show", "refs/heads/main:notes/AFN-002.md")).toContain("Published through A.");
    expect(git(remoteDir, "show", "refs/heads/main:notes/AFN-003.md")).toContain("Published through B.");
    expect(await b.resolve("refs/heads/main")).toBe(second.commit);
  });

  it("answers a conflict when the remote changed the same file, and the remote keeps the first write", async () => {
    await a.remote!.sync();
    await b.remote!.sync();
    const seen = (await b.resolve("refs/heads/drafts/AFN-001"))!;
    const theirs = await writeNote(a, { ref: "refs/heads/drafts/AFN-001", expected: seen }, "AFN-001", "A's version.");
    const lost = writeNote(b, { ref: "refs/heads/drafts/AFN-001", expected: seen }, "AFN-001", "B's version.");
    await expect(lost).rejects.toBeInstanceOf(RefConflictError);
    expect(remoteOf("refs/heads/drafts/AFN-001")).toBe(theirs.commit);
    // The conflict leaves B's mirror at the remote's value, so its 409 can show both versions.
    expect(await b.resolve("refs/heads/drafts/AFN-001")).toBe(theirs.commit);
  });

  it("a ref deleted on the remote is deleted locally by the next sync", async () => {
    const head = (await a.resolve("refs/heads/drafts/AFN-001"))!;
    await a.updateRef("refs/heads/drafts/AFN-001", head, null);
    expect(remoteOf("refs/heads/drafts/AFN-001")).toBeNull();
    await b.remote!.sync();
    expect(await b.resolve("refs/heads/drafts/AFN-001")).toBeNull();
  });

  it("with the remote down, a write fails with RemoteUnavailableError and moves nothing; back up, it works", async () => {
    const before = (await a.resolve("refs/heads/main"))!;
    const remoteBefore = remoteOf("refs/heads/main");
    await server.stop();
    try {
      const write = writeNote(a, { ref: "refs/heads/main", expected: before }, "AFN-004");
      await expect(write).rejects.toBeInstanceOf(RemoteUnavailableError);
      await expect(write).rejects.toThrow(/cannot be reached.*nothing was saved/);
      await expect(write).rejects.not.toThrow(PASSWORD);
      expect(await a.resolve("refs/heads/main")).toBe(before);
      expect(remoteOf("refs/heads/main")).toBe(remoteBefore);
      // Reads keep serving the last fetched commit.
      expect((await a.snapshot("refs/heads/main")).notes.length).toBeGreaterThan(0);
      await expect(a.remote!.sync()).rejects.toBeInstanceOf(RemoteUnavailableError);
    } finally {
      await server.start();
    }
    const after = await writeNote(a, { ref: "refs/heads/main", expected: before }, "AFN-004");
    expect(remoteOf("refs/heads/main")).toBe(after.commit);
    await b.remote!.sync();
    expect(await b.resolve("refs/heads/main")).toBe(after.commit);
    expect(fsck(remoteDir)).toBe("");
  });

  it("a change the remote made to the same file is a conflict even when the bytes agree (the author decides)", async () => {
    await a.remote!.sync();
    await b.remote!.sync();
    const seen = (await b.resolve("refs/heads/main"))!;
    const file = noteFile("AFN-005", "Same bytes.");
    await a.commit({ ref: "refs/heads/main", expected: seen, author: person, message: "A", changes: { "notes/AFN-005.md": file } });
    await expect(
      b.commit({ ref: "refs/heads/main", expected: seen, author: person, message: "B", changes: { "notes/AFN-005.md": file } }),
    ).rejects.toBeInstanceOf(RefConflictError);
  });
});

describe("the rule after a refused push (afterRejection)", () => {
  const X = "a".repeat(40);
  const Y = "b".repeat(40);
  const base = { expected: X, parent: X, tip: Y, touchedByRemote: [] as string[], attempt: 1, limit: 6 };
  it("rebuilds on the new tip when the remote touched none of the commit's files", () => {
    expect(afterRejection(base)).toEqual({ kind: "rebase", onto: Y });
  });
  it("is a conflict when the remote touched one of them", () => {
    expect(afterRejection({ ...base, touchedByRemote: ["notes/AFN-001.md"] })).toEqual({ kind: "conflict" });
  });
  it("pushes the same commit again when the ref is where we expected (the remote was busy)", () => {
    expect(afterRejection({ ...base, tip: X })).toEqual({ kind: "retry" });
  });
  it("is a conflict when the ref was created or deleted meanwhile, or the commit started elsewhere", () => {
    expect(afterRejection({ ...base, expected: null, parent: X })).toEqual({ kind: "conflict" });
    expect(afterRejection({ ...base, tip: null })).toEqual({ kind: "conflict" });
    expect(afterRejection({ ...base, parent: Y })).toEqual({ kind: "conflict" });
  });
  it("stops after the bounded number of attempts", () => {
    expect(afterRejection({ ...base, attempt: 6 })).toEqual({ kind: "conflict" });
    expect(afterRejection({ ...base, tip: X, attempt: 6 })).toEqual({ kind: "conflict" });
  });
});
