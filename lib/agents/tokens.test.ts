import { describe, expect, it } from "vitest";
import { clipToTokens, firstSentence, tokens } from "./tokens";

describe("firstSentence", () => {
  it.each([
    ["Make the whole chunk one transaction. Then publish.", "Make the whole chunk one transaction."],
    ["Selecting 2,051 keys is a choice. Sparse work is another.", "Selecting 2,051 keys is a choice."],
    ["Keep v2.1 of the format, e.g. for Qwen. Then stop.", "Keep v2.1 of the format, e.g. for Qwen."],
    ["Port Qwen3.8-Flash-Next first. Then the rest.", "Port Qwen3.8-Flash-Next first."],
    ["No full stop at all", "No full stop at all"],
    ["Ask why? Because.", "Ask why?"],
  ])("%s", (line, first) => {
    expect(firstSentence(line)).toBe(first);
  });
});

describe("clipToTokens", () => {
  const text = "Selecting 2,051 keys does not make attention sparse if the backend still allocates or traverses the full query-by-key matrix.";

  it("returns text that fits unchanged", () => {
    expect(clipToTokens(text, 200)).toBe(text);
  });

  it("cuts at a word boundary, marks the cut, and stays within the budget", () => {
    for (const max of [5, 10, 15, 20]) {
      const clipped = clipToTokens(text, max);
      expect(tokens(clipped)).toBeLessThanOrEqual(max);
      expect(clipped.endsWith("…")).toBe(true);
      expect(text.startsWith(clipped.slice(0, -1))).toBe(true);
      // As much as the budget allows: one more word would not fit.
      const kept = clipped.slice(0, -1).split(" ").length;
      expect(
        tokens(
          `${text
            .split(" ")
            .slice(0, kept + 1)
            .join(" ")}…`,
        ),
      ).toBeGreaterThan(max);
    }
  });
});
