import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { benchNote } from "@/scripts/bench-notes";
import { seedNotes, viewOf } from "@/lib/testing/seed";
import { tempDir } from "@/lib/store/testing";
import { searchInThread, searchQuery, type SearchHit } from "./engine";
import { loadIndex } from "./saved-index";
import { forgetAnswers, searchNotes, searchReady, startSearchWorker } from "./index";
import { readSide } from "@/lib/read-model/read-side";

// The search worker thread, run as the server runs it (here its TypeScript is compiled by tsx,
// in the server by Next's bundler): after any sequence of commits, its answers (with the passages
// this thread cuts) are exactly the in-thread engine's on the same view. And a worker that dies
// never costs a reader the answer: search goes on in this thread.

const parse = (text: string): Note => {
  const parsed = parseNote(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
};
const seed = seedNotes();
const generated = Array.from({ length: 60 }, (_, i) => parse(benchNote(21 + i, `Generated note ${21 + i}.`)));
const pool = [...seed, ...generated];
// The in-thread engine's answer, no cache.
const searchNotesReference = (view: ReturnType<typeof viewOf>, q: string, opts: { limit?: number } = {}) =>
  searchInThread(view, searchQuery(q), opts.limit ?? 50);
const QUERIES = ["sparse attention", "transactional state", "AFN-016", "checkpoint evidence", "tokeniz", "Phase 5", "quasicrystal ledger", "zyzzogeton"];

// tsx's require hook, registered in the worker's own thread, compiles the entry and what it imports.
const entry = new URL("./worker.ts", import.meta.url).pathname;
const spawn = () => new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(entry)});`, { eval: true });
const worker = startSearchWorker(spawn);
const folder = tempDir("search-worker-saved");
afterAll(async () => {
  await worker.stop();
  fs.rmSync(folder, { recursive: true, force: true });
});

let commits = 0;
const commit = () => (++commits).toString(16).padStart(40, "0");

describe("the search worker", () => {
  it("answers as the in-thread engine does after any sequence of commits", async () => {
    // Both indexes start from the same view and move through the same commits, in the same order of
    // removals and additions, so even their floating-point field-length averages agree to the bit.
    const first = viewOf(pool.slice(0, 40), commit());
    await searchReady(first);
    searchNotesReference(first, "warm");
    const steps = fc.array(
      fc.record({
        keep: fc.subarray(pool.map((_, i) => i)),
        // A changed note: a new object (a new blob) with a word no other note has.
        change: fc.subarray(
          pool.map((_, i) => i),
          { maxLength: 5 },
        ),
      }),
      { minLength: 1, maxLength: 6 },
    );
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        for (const { keep, change } of sequence) {
          const changed = new Set(change);
          const notes = keep.map((i) => (changed.has(i) ? { ...pool[i]!, title: `${pool[i]!.title} quasicrystal ledger` } : pool[i]!));
          const view = viewOf(notes, commit());
          forgetAnswers();
          for (const q of QUERIES) expect(await searchNotes(view, q, { limit: 7 })).toEqual(searchNotesReference(view, q, { limit: 7 }));
        }
      }),
      { numRuns: 12 },
    );
    expect(worker.failed).toBeNull();
  }, 120_000);

  it("searches in this thread when the worker dies, with the same answer", async () => {
    const dying = startSearchWorker(() => new Worker("process.exit(3)", { eval: true }));
    const view = viewOf(seed, commit());
    forgetAnswers();
    const hits = await searchNotes(view, "sparse attention");
    expect(hits[0]?.id).toBe("AFN-016");
    expect(hits).toEqual(searchNotesReference(view, "sparse attention"));
    expect(dying.failed?.message).toMatch(/exited with code 3/);
  });

  describe("a saved index", () => {
    const file = path.join(folder, "read-model", "build", "search-index.json");
    const views = new Map<string, ReturnType<typeof viewOf>>();
    const remember = (view: ReturnType<typeof viewOf>) => (views.set(view.commit, view), view);
    const restore = { file, notesAt: async (commit: string) => views.get(commit)?.byId ?? null };
    const answers = async (view: ReturnType<typeof viewOf>) => {
      forgetAnswers();
      return Promise.all(QUERIES.map((q) => searchNotes(view, q, { limit: 7 })));
    };
    const reference = (view: ReturnType<typeof viewOf>) => QUERIES.map((q) => searchNotesReference(view, q, { limit: 7 }));
    // The in-thread reference built afresh at `view` (its floating-point sums then match a worker's
    // that was built, or saved, at the same view and moved the same way since).
    const buildReference = (view: ReturnType<typeof viewOf>) => {
      delete readSide().searchIndex;
      searchNotesReference(view, "warm");
    };
    // ... or loaded from the saved file, as the worker loads it.
    const loadReference = (view: ReturnType<typeof viewOf>) => {
      const loaded = loadIndex(file)!;
      expect(loaded.commit).toBe(view.commit);
      readSide().searchIndex = {
        live: { commit: view.commit, notes: view.byId, search: loaded.search },
        building: null,
      };
    };
    // Equal but for the last bits of a score and the order of the matched words.
    const alike = (got: SearchHit[][], want: SearchHit[][]) => {
      expect(got.map((hits) => hits.map((h) => [h.id, h.field, h.passage, [...h.terms].sort()]))).toEqual(
        want.map((hits) => hits.map((h) => [h.id, h.field, h.passage, [...h.terms].sort()])),
      );
      got.forEach((hits, i) => hits.forEach((h, j) => expect(h.score).toBeCloseTo(want[i]![j]!.score, 9)));
    };

    it("is loaded at the next start and moved by the notes changed since, answering as an index that went the same way", async () => {
      const saved = remember(viewOf(pool.slice(0, 50), commit()));
      const first = startSearchWorker(spawn, restore);
      await searchReady(saved);
      expect(first.posted).toBe(50);
      await first.save();
      await first.stop();
      expect(fs.existsSync(file)).toBe(true);

      // Three notes changed, two gone, four new since the saved commit.
      const changed = new Set([pool[5]!.id, pool[30]!.id, pool[45]!.id]);
      const notes = pool.slice(2, 54).map((n) => (changed.has(n.id) ? { ...n, title: `${n.title} quasicrystal ledger` } : n));
      const now = remember(viewOf(notes, commit()));
      const next = startSearchWorker(spawn, restore);
      const got = await answers(now);
      // Exactly the answers of the saved index loaded here and moved the same way...
      loadReference(saved);
      expect(got).toEqual(reference(now));
      // ... and, to the last bits of a score, those of an index built at the saved view and moved.
      buildReference(saved);
      alike(got, reference(now));
      expect(got[QUERIES.indexOf("quasicrystal ledger")]!.map((h) => h.id).sort()).toEqual([...changed].sort());
      expect(next.posted).toBe(2 + 3 + 4);
      expect(next.failed).toBeNull();
      await next.stop();
    });

    it("can be loaded before the view is known, as at a server's start, then moved to it", async () => {
      const saved = remember(viewOf(pool.slice(0, 20), commit()));
      const first = startSearchWorker(spawn, restore);
      await searchReady(saved);
      await first.save();
      await first.stop();
      const now = remember(viewOf(pool.slice(0, 22), commit()));
      const next = startSearchWorker(spawn, restore);
      next.preload();
      // Once an answered message queued behind it returns, the load is done: the file can go.
      await next.save();
      fs.rmSync(file);
      await searchReady(now);
      expect(next.posted).toBe(2);
      const got = await answers(now);
      buildReference(saved);
      alike(got, reference(now));
      expect(next.failed).toBeNull();
      await next.save(); // the file again, for the tests after this one
      await next.stop();
    });

    it("is not trusted when damaged, or when its commit cannot be read: the worker builds from the notes", async () => {
      const view = remember(viewOf(pool.slice(10, 40), commit()));
      buildReference(view);
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").slice(0, 5000));
      const damaged = startSearchWorker(spawn, restore);
      expect(await answers(view)).toEqual(reference(view));
      expect(damaged.posted).toBe(30);
      await damaged.save();
      await damaged.stop();

      views.delete(view.commit); // the saved commit is gone from the repository
      const other = remember(viewOf(pool.slice(0, 30), commit()));
      buildReference(other);
      const rebuilt = startSearchWorker(spawn, restore);
      expect(await answers(other)).toEqual(reference(other));
      expect(rebuilt.posted).toBe(30);
      expect(rebuilt.failed).toBeNull();
      await rebuilt.stop();
    });

    it("is written by the worker itself after its first build, and not again for a commit that changes one note", async () => {
      fs.rmSync(file, { force: true });
      const view = remember(viewOf(pool.slice(0, 30), commit()));
      const own = startSearchWorker(spawn, restore);
      await searchReady(view);
      const savedCommit = () => (fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as { commit: string }).commit : null);
      // Saved once the worker has been idle for 2 s (lib/search/worker.ts SETTLE_MS).
      for (let i = 0; i < 100 && savedCommit() !== view.commit; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(savedCommit()).toBe(view.commit);
      const next = remember(
        viewOf([{ ...pool[3]!, title: `${pool[3]!.title} quasicrystal ledger` }, ...pool.slice(0, 30).filter((_, i) => i !== 3)], commit()),
      );
      expect((await searchNotes(next, "quasicrystal ledger")).map((h) => h.id)).toEqual([pool[3]!.id]);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      // One note behind: a restart moves the saved index by it, so it is not written again yet.
      expect(savedCommit()).toBe(view.commit);
      expect(own.failed).toBeNull();
      await own.stop();
    }, 20_000);
  });
});
