import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createContentStore, ensureContentRepo, RefLockedError, type ContentStore } from "./api";
import { acquireRefLock } from "./ref-update";
import { procStat, STALE_UNATTRIBUTED_MS, thisWriter, type Writer } from "./ref-lock";
import { fsck, git, noteFile, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

/**
 * The stale-lock rule (docs/decisions/stale-ref-locks.md): a lock whose writer is gone, or that
 * nobody can be named for and is older than any live write, is removed with a log line; a live
 * writer's lock never is. Locks here are the files a real writer leaves: ours name the writer,
 * native git's hold only the new ref value.
 */

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
afterEach(() => vi.restoreAllMocks());

const DRAFT = "refs/heads/drafts/AFN-001";

async function freshStore(): Promise<ContentStore<Note>> {
  const seed = seedFolder(["AFN-001", "AFN-002"]);
  const dir = tempDir("ref-lock");
  made.push(seed, dir);
  const gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, seed);
  const store = createContentStore(gitdir, { parse: parseNote });
  // A draft branch, as the studio makes one.
  await store.updateRef(DRAFT, null, (await store.resolve("main"))!);
  return store;
}

let round = 0;
function saveDraft(store: ContentStore<Note>, ref = DRAFT) {
  round++;
  return store.resolve(ref).then((head) =>
    store.commit({
      ref,
      expected: head,
      author: { name: "Ada", email: "ada@example.org" },
      message: `Save ${round}`,
      changes: { "notes/AFN-001.md": noteFile("AFN-001", `Saved in round ${round}.`) },
    }),
  );
}

const lockOf = (store: ContentStore<Note>, ref: string) => path.join(store.gitdir, `${ref}.lock`);
const plant = (file: string, text: string, ageMs = 0) => {
  fs.writeFileSync(file, text);
  const when = new Date(Date.now() - ageMs);
  fs.utimesSync(file, when, when);
};
const writerLock = (w: Writer) => `${JSON.stringify(w)}\n`;
/** The lock native git leaves when it dies mid-write: the new value only, no writer. */
const gitLock = (store: ContentStore<Note>) => `${git(store.gitdir, "rev-parse", "main")}\n`;

function deadPid(): number {
  const done = spawnSync(process.execPath, ["-e", "0"]);
  return done.pid!;
}

function warnings() {
  const lines: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((line: unknown) => void lines.push(String(line)));
  return lines;
}

describe("a live writer's lock is never broken", () => {
  it("waits out this process's own lock, however old, and says who holds it", async () => {
    const store = await freshStore();
    const logged = warnings();
    const held = await acquireRefLock(store.gitdir, DRAFT);
    plant(held.file, fs.readFileSync(held.file, "utf8"), 10 * 60_000); // ten minutes old, writer running

    const refused = saveDraft(store);
    await expect(refused).rejects.toBeInstanceOf(RefLockedError);
    await expect(refused).rejects.toThrow(`process ${process.pid} on`);
    await expect(refused).rejects.toThrow("which is running");
    expect(fs.existsSync(held.file)).toBe(true);
    // Nor does a start-up sweep take it.
    await ensureContentRepo(store.gitdir, "/nonexistent");
    expect(fs.existsSync(held.file)).toBe(true);
    expect(logged).toEqual([]);

    await held.release();
    await saveDraft(store);
  });

  it("waits out another running process's lock", async () => {
    const store = await freshStore();
    const logged = warnings();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" });
    try {
      await new Promise((r) => other.once("spawn", r));
      const start = procStat(other.pid!)?.start;
      expect(start).toBeTruthy();
      plant(lockOf(store, DRAFT), writerLock({ ...thisWriter(), pid: other.pid!, start: start! }), 10 * 60_000);
      await expect(saveDraft(store)).rejects.toThrow(`process ${other.pid} on`);
      expect(fs.existsSync(lockOf(store, DRAFT))).toBe(true);
      expect(logged).toEqual([]);
    } finally {
      other.kill("SIGKILL");
    }
    await new Promise((r) => other.once("exit", r));
    // Now that writer is gone: the next save clears its lock.
    await saveDraft(store);
    expect(logged).toEqual([expect.stringContaining(`${lockOf(store, DRAFT)} (its writer, process ${other.pid} on`)]);
  });

  it("waits out a fresh lock nobody is named in (native git writing), and native git sees it too", async () => {
    const store = await freshStore();
    const logged = warnings();
    plant(lockOf(store, DRAFT), gitLock(store));
    await expect(saveDraft(store)).rejects.toThrow("a writer it does not name");
    expect(() => git(store.gitdir, "update-ref", DRAFT, "main")).toThrow(/AFN-001.lock/);
    expect(fs.existsSync(lockOf(store, DRAFT))).toBe(true);
    expect(logged).toEqual([]);
  });
});

describe("a stale lock is cleared with a log line", () => {
  it("clears a lock whose writer has exited, at once", async () => {
    const store = await freshStore();
    const logged = warnings();
    const pid = deadPid();
    plant(lockOf(store, DRAFT), writerLock({ ...thisWriter(), pid, start: "1" }));
    const started = Date.now();
    const saved = await saveDraft(store);
    expect(Date.now() - started).toBeLessThan(1500); // no waiting out the 2 s lock wait
    expect(git(store.gitdir, "rev-parse", DRAFT)).toBe(saved.commit);
    expect(logged).toEqual([`content store: removed stale lock ${lockOf(store, DRAFT)} (its writer, process ${pid} on ${thisWriter().host}, has exited)`]);
  });

  it("clears a lock whose pid now belongs to another program", async () => {
    const store = await freshStore();
    const logged = warnings();
    // Our parent runs, but it is not the process that took the lock: that one started at another time.
    plant(lockOf(store, DRAFT), writerLock({ ...thisWriter(), pid: process.ppid, start: "1" }));
    await saveDraft(store);
    expect(logged).toHaveLength(1);
  });

  it("clears an old lock nobody is named in, so native git can write again", async () => {
    const store = await freshStore();
    const logged = warnings();
    plant(lockOf(store, DRAFT), gitLock(store), STALE_UNATTRIBUTED_MS + 5000);
    expect(() => git(store.gitdir, "update-ref", DRAFT, "main")).toThrow(/AFN-001.lock/);
    await saveDraft(store);
    expect(logged).toEqual([
      expect.stringMatching(
        /removed stale lock .*AFN-001\.lock \(taken by a writer it does not name .* 1\d\.\d s ago; no live ref write holds a lock that long/,
      ),
    ]);
    git(store.gitdir, "update-ref", DRAFT, "main");
    expect(fsck(store.gitdir)).toBe("");
  });

  it("judges a lock from another machine or container by its age only", async () => {
    const store = await freshStore();
    warnings();
    const elsewhere = { ...thisWriter(), pidns: "pid:[1]", pid: deadPid() };
    plant(lockOf(store, DRAFT), writerLock(elsewhere));
    await expect(saveDraft(store)).rejects.toThrow("which cannot be checked from here");
    plant(lockOf(store, DRAFT), writerLock(elsewhere), STALE_UNATTRIBUTED_MS + 1000);
    await saveDraft(store);
  });

  it("clears a stale packed-refs.lock when a packed ref is deleted", async () => {
    const store = await freshStore();
    const logged = warnings();
    git(store.gitdir, "pack-refs", "--all");
    const packed = path.join(store.gitdir, "packed-refs.lock");
    plant(packed, "", STALE_UNATTRIBUTED_MS + 1000);
    await store.updateRef(DRAFT, await store.resolve(DRAFT), null);
    expect(await store.resolve(DRAFT)).toBeNull();
    expect(fs.existsSync(packed)).toBe(false);
    expect(logged).toEqual([expect.stringContaining(packed)]);
    expect(fsck(store.gitdir)).toBe("");
  });

  it("on start, clears every stale lock (main, review threads, packed-refs) and keeps the live ones", async () => {
    const store = await freshStore();
    const logged = warnings();
    const review = "refs/reviews/AFN-001";
    await store.updateRef(review, null, (await store.resolve("main"))!);
    const dead = writerLock({ ...thisWriter(), pid: deadPid(), start: "1" });
    plant(lockOf(store, "refs/heads/main"), dead);
    plant(lockOf(store, review), gitLock(store), 60_000);
    plant(path.join(store.gitdir, "packed-refs.lock"), "", 60_000);
    plant(lockOf(store, DRAFT), gitLock(store)); // fresh: maybe a git write in progress

    await ensureContentRepo(store.gitdir, "/nonexistent");
    expect(logged.sort()).toEqual(
      [lockOf(store, "refs/heads/main"), lockOf(store, review), path.join(store.gitdir, "packed-refs.lock")]
        .sort()
        .map((f) => expect.stringContaining(`removed stale lock ${f} (`)),
    );
    expect(fs.existsSync(lockOf(store, DRAFT))).toBe(true);
    // Native git is unblocked before the app writes anything.
    git(store.gitdir, "update-ref", review, "main");
    git(store.gitdir, "update-ref", "refs/heads/main", "main");
    expect(fsck(store.gitdir)).toBe("");
  });
});
