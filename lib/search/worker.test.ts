import fc from "fast-check";
import { Worker } from "node:worker_threads";
import { afterAll, describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { benchNote } from "@/scripts/bench-notes";
import { seedNotes, viewOf } from "@/lib/testing/seed";
import { searchNotesReference } from "./engine";
import { forgetAnswers, searchNotes, searchReady, startSearchWorker } from "./index";

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
const QUERIES = ["sparse attention", "transactional state", "AFN-016", "checkpoint evidence", "tokeniz", "Phase 5", "quasicrystal ledger", "zyzzogeton"];

// tsx's require hook, registered in the worker's own thread, compiles the entry and what it imports.
const entry = new URL("./worker.ts", import.meta.url).pathname;
const spawn = () => new Worker(`require("tsx/cjs/api").register(); require(${JSON.stringify(entry)});`, { eval: true });
const worker = startSearchWorker(spawn);
afterAll(() => worker.stop());

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
});
