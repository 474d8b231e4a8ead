import { describe, expect, it } from "vitest";
import { foldWeakMatches } from "./search-results";

const hit = (id: string, score: number) => ({ id, score });

describe("foldWeakMatches", () => {
  it("folds the stock-wording matches of 'transactional state' and keeps the notes about it", () => {
    // The seed's scores for "transactional state": a tag match, a tag of one word, a summary, then 14 Claim boundaries.
    const hits = [hit("AFN-010", 204.2), hit("AFN-012", 7.3), hit("AFN-003", 4.7), ...Array.from({ length: 14 }, (_, i) => hit(`AFN-1${i}`, 0.1))];
    const { strong, weak } = foldWeakMatches(hits);
    expect(strong.map((h) => h.id)).toEqual(["AFN-010", "AFN-012", "AFN-003"]);
    expect(weak).toHaveLength(14);
  });

  it("keeps everything when the matches are alike, and nothing is lost either way", () => {
    const even = [hit("a", 3), hit("b", 2.5), hit("c", 0.2)];
    expect(foldWeakMatches(even).weak).toEqual([]);
    expect(foldWeakMatches([])).toEqual({ strong: [], weak: [] });
    const mixed = [hit("a", 100), hit("b", 0.5), hit("c", 2)];
    const { strong, weak } = foldWeakMatches(mixed);
    expect([...strong, ...weak].map((h) => h.id).sort()).toEqual(["a", "b", "c"]);
    expect(weak.map((h) => h.id)).toEqual(["b"]);
  });
});
