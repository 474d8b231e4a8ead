import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bestOffset, passageAround, termOffsets } from "./passage";

/** The rule as first written: for each hit, the distinct terms of the hits in the window it starts. */
function bestOffsetByEveryWindow(text: string, terms: readonly string[]): number {
  const hits = termOffsets(text, terms);
  let best = { at: 0, count: 0 };
  for (const hit of hits) {
    const distinct = new Set(hits.filter((h) => h.at >= hit.at && h.at < hit.at + 150).map((h) => h.term));
    if (distinct.size > best.count) best = { at: hit.at, count: distinct.size };
  }
  return best.at;
}

describe("passageAround", () => {
  it("shows the place where the most query terms meet, cut at words, with ellipses", () => {
    const filler = "Words that say nothing in particular about the matter. ".repeat(12);
    const text = `Cache first. ${filler}Here the cache and the eviction policy and the loader meet. ${filler}`;
    const passage = passageAround(text, ["cache", "eviction", "loader"]);
    expect(passage).toMatch(/^… .*Here the cache and the eviction policy and the loader meet\..* …$/);
    expect(passage.length).toBeLessThanOrEqual(224);
    expect(passageAround("Short text.", ["text"])).toBe("Short text.");
  });

  it("finds the same place as a scan of every window, for any text and terms", () => {
    const term = fc.constantFrom("cache", "cach", "evict", "eviction", "load", "Cache", "ÉTÉ", "été");
    // Mostly words that match no term, so the terms meet in some windows and not in others.
    const word = fc.oneof({ arbitrary: fc.constantFrom("the", "a", "policy", "loader", "of"), weight: 12 }, { arbitrary: term, weight: 1 });
    fc.assert(
      fc.property(fc.array(word, { minLength: 20, maxLength: 400, size: "max" }), fc.uniqueArray(term, { minLength: 1, maxLength: 4 }), (words, terms) => {
        const text = words.join(" ");
        expect(bestOffset(text, terms)).toBe(bestOffsetByEveryWindow(text, terms));
      }),
      { numRuns: 300 },
    );
  });
});
