import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { createContentStore, ensureContentRepo, RefConflictError, RefLockedError, type ContentStore, type Oid } from "./api";
import { fsck, git, noteFile, seedFolder, tempDir } from "./testing";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";

const made: string[] = [];
afterAll(() => made.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function freshStore(): Promise<ContentStore<Note>> {
  const seed = seedFolder(["AFN-001"]);
  const dir = tempDir("cas");
  made.push(seed, dir);
  const gitdir = path.join(dir, "content.git");
  await ensureContentRepo(gitdir, seed);
  return createContentStore(gitdir, { parse: parseNote });
}

const writer = (n: number) => `Writer ${String(n).padStart(2, "0")}`;
const noteOf = (n: number) => `notes/AFN-${100 + n}.md`;

function write(store: ContentStore<Note>, n: number, expected: Oid | null, round = 1) {
  return store.commit({
    ref: "refs/heads/main",
    expected,
    author: { name: writer(n), email: `w${n}@example.org` },
    message: `${writer(n)} writes AFN-${100 + n}, round ${round}`,
    changes: { [noteOf(n)]: noteFile(`AFN-${100 + n}`, `Round ${round} of AFN-${100 + n}.`) },
  });
}

describe("compare-and-swap on a ref", () => {
  it("refuses a save based on a stale head with both ids, and loses nothing", async () => {
    const store = await freshStore();
    const opened = (await store.resolve("main"))!;
    const first = await write(store, 1, opened);
    const stale = write(store, 2, opened);
    await expect(stale).rejects.toBeInstanceOf(RefConflictError);
    await expect(stale).rejects.toMatchObject({ ref: "refs/heads/main", expected: opened, actual: first.commit });
    expect(await store.resolve("main")).toBe(first.commit);
    expect(await store.readFile("main", noteOf(1))).toBe(noteFile("AFN-101", "Round 1 of AFN-101."));
    expect(await store.readFile("main", noteOf(2))).toBeNull();
    // Creating a ref that already exists is the same conflict.
    await expect(write(store, 3, null)).rejects.toMatchObject({ expected: null, actual: first.commit });
  });

  it("lets exactly one of 50 simultaneous writers land; with retries all 50 land and none is lost", async () => {
    const store = await freshStore();
    const head = (await store.resolve("main"))!;
    const results = await Promise.allSettled(Array.from({ length: 50 }, (_, n) => write(store, n, head)));
    const landed = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    expect(landed).toHaveLength(1);
    const winner = landed[0]!;
    for (const r of results) {
      if (r.status === "rejected") expect(r.reason).toMatchObject({ name: "RefConflictError", expected: head, actual: winner.commit });
    }
    expect(await store.resolve("main")).toBe(winner.commit);

    // Each writer now re-reads the head and re-applies its change until it lands.
    const conflicts = await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        let lost = 0;
        for (;;) {
          try {
            await write(store, n, await store.resolve("main"), 2);
            return lost;
          } catch (e) {
            if (!(e instanceof RefConflictError)) throw e;
            lost++;
          }
        }
      }),
    );
    expect(conflicts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    const log = git(store.gitdir, "log", "--format=%s", "main").split("\n");
    expect(log).toHaveLength(1 + 1 + 50);
    for (let n = 0; n < 50; n++) expect(log.filter((s) => s === `${writer(n)} writes AFN-${100 + n}, round 2`)).toHaveLength(1);
    expect(log.filter((s) => s.endsWith("round 1"))).toEqual([winner.message]);
    // Every writer's note is in the final tree, as that writer last wrote it: no save overwrote another.
    const snap = await store.snapshot("main");
    expect(snap.notes.map((n) => n.id)).toEqual(["AFN-001", ...Array.from({ length: 50 }, (_, n) => `AFN-${100 + n}`)]);
    expect(snap.notes.slice(1).map((n) => n.ok && n.note.summary)).toEqual(Array.from({ length: 50 }, (_, n) => `Round 2 of AFN-${100 + n}.`));
    expect(fsck(store.gitdir)).toBe("");
  });

  it("waits for a lock held by another writer, and gives up with a clear error if it is never released", async () => {
    const store = await freshStore();
    const head = (await store.resolve("main"))!;
    const lock = path.join(store.gitdir, "refs", "heads", "main.lock");

    fs.writeFileSync(lock, "");
    const waiting = write(store, 1, head);
    setTimeout(() => fs.rmSync(lock), 300);
    const landed = await waiting;
    expect(await store.resolve("main")).toBe(landed.commit);

    fs.writeFileSync(lock, "");
    const started = Date.now();
    await expect(write(store, 2, landed.commit)).rejects.toBeInstanceOf(RefLockedError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(fs.existsSync(lock)).toBe(true); // someone else's lock is not ours to remove
    expect(await store.resolve("main")).toBe(landed.commit);
    fs.rmSync(lock);
  });

  it("keeps writers in separate processes from losing each other's commits", async () => {
    const store = await freshStore();
    const script = path.join(import.meta.dirname, "cas-writer.script.ts");
    const run = promisify(execFile);
    const names = ["ALPHA", "BRAVO", "CHARLIE"];
    const outputs = await Promise.all(names.map((name) => run(process.execPath, ["--import", "tsx", script, store.gitdir, name, "8"], { cwd: process.cwd() })));
    expect(outputs.map((o) => JSON.parse(o.stdout).name)).toEqual(names);
    const subjects = git(store.gitdir, "log", "--format=%s", "main").split("\n");
    expect(subjects).toHaveLength(1 + 3 * 8);
    for (const name of names) for (let i = 0; i < 8; i++) expect(subjects).toContain(`${name} writes ${name}-${String(i).padStart(3, "0")}`);
    expect(fsck(store.gitdir)).toBe("");
  }, 120_000);
});
