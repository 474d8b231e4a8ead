import { describe, expect, it } from "vitest";
import { highlightRanges } from "./highlight";

const marked = (text: string, terms: string[]) => highlightRanges(text, terms).map((r) => text.slice(r.start, r.end));

describe("highlightRanges", () => {
  it("marks a phrase once, not word by word", () => {
    expect(marked("A sparse mask is not sparse attention.", ["sparse", "attention"])).toEqual(["sparse", "sparse attention"]);
  });

  it("joins words across a hyphen but not across other words or punctuation", () => {
    expect(marked("fail-closed admission", ["fail", "closed"])).toEqual(["fail-closed"]);
    expect(marked("fail, then closed", ["fail", "closed"])).toEqual(["fail", "closed"]);
  });

  it("marks the whole word of a prefix match, without marking inside a word", () => {
    expect(marked("Attention kernels attend", ["atten"])).toEqual(["Attention", "attend"]);
    expect(marked("reattention", ["atten"])).toEqual([]);
  });
});
