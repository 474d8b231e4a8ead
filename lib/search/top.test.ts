import fc from "fast-check";
import type { SearchResult } from "minisearch";
import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import { topByFinalScore, type Scored } from "./engine";

// The early stop in topByFinalScore must never change the answer: it is compared here with the
// plain rule it replaces (lift every candidate whose short fields hold the exact phrase, sort all).
const PHRASE = "transactional state";

function candidate(i: number, base: number, exact: boolean): Scored {
  const note = {
    id: `AFN-${String(i).padStart(3, "0")}`,
    title: exact ? "On Transactional State" : "On state",
    tags: [],
    summary: "",
    phase: "1",
    core: null,
  } as unknown as Note;
  return { id: note.id, note, result: () => ({}) as SearchResult, coverage: 1, base };
}

function naive(candidates: Scored[], limit: number) {
  return candidates
    .map((c) => ({ id: c.id, score: c.base * (c.note.title.toLowerCase().includes(PHRASE) ? 1.5 : 1) }))
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, limit);
}

describe("topByFinalScore", () => {
  it("gives exactly the top of lifting and sorting every candidate", () => {
    fc.assert(
      fc.property(
        // Few distinct scores, so ties (broken by ID) are frequent.
        fc.array(fc.tuple(fc.integer({ min: 1, max: 12 }), fc.boolean()), { maxLength: 80 }),
        fc.integer({ min: 1, max: 20 }),
        (rows, limit) => {
          const candidates = rows.map(([score, exact], i) => candidate(i, score / 4, exact)).sort((a, b) => b.base - a.base);
          const fast = topByFinalScore(candidates, PHRASE, limit).map((c) => ({ id: c.id, score: c.score }));
          expect(fast).toEqual(naive(candidates, limit));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("stops testing the phrase once no later candidate can enter the top", () => {
    let tested = 0;
    const candidates = Array.from({ length: 1000 }, (_, i) => candidate(i, 1000 - i, false)).map((c) => {
      const note = c.note;
      return { ...c, note: new Proxy(note, { get: (t, k) => (k === "title" && tested++, Reflect.get(t, k)) }) };
    });
    const top = topByFinalScore(candidates, PHRASE, 10);
    expect(top.map((c) => c.id)).toEqual(candidates.slice(0, 10).map((c) => c.id));
    // Only a candidate whose lifted score could still reach the 10th (991) is tested: base ≥ 991 / 1.5.
    const couldEnter = candidates.filter((c) => c.base * 1.5 >= 991).length;
    expect(tested).toBe(couldEnter);
    expect(tested).toBeLessThan(candidates.length / 2);
  });
});
