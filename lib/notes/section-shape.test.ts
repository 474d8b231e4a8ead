import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "./markdown";
import { SECTIONS } from "./schema";
import { BLOCKS_LIMIT, markdownIsSafe, MARKS_LIMIT, NESTING_LIMIT, sectionShape, sectionShapeProblems, withoutLineSeparators } from "./section-shape";

// The one pass that decides which section text the parser is never handed (issue 32, findings 2, 3, 11).

const nestedList = (depth: number) => Array.from({ length: depth }, (_, i) => `${"  ".repeat(i)}- level ${i + 1}`).join("\n");

describe("the shape of a section's text", () => {
  it.each([
    ["3,000 `>`", ">".repeat(3000), 3000],
    ["`> ` 40 times before a word", "> ".repeat(40) + "x", 40],
    ["list markers on one line", "- ".repeat(40) + "x", 40],
    ["ordered markers on one line", "1. ".repeat(40) + "x", 40],
    ["quotes and lists mixed", "> - ".repeat(20) + "x", 40],
    ["lists nested by indentation", nestedList(40), 40],
    ["quotes continued on later lines", "> a\n" + "> ".repeat(35) + "b", 35],
  ])("counts %s as nested too deep", (_, text, depth) => {
    expect(sectionShape(text).depth).toBe(depth);
    expect(markdownIsSafe(text)).toBe(false);
    expect(sectionShapeProblems("Decision", text)).toContainEqual({
      line: expect.any(Number),
      message: expect.stringMatching(/^Decision nests quotes or lists \d+ levels deep on line \d+; at most 32/),
    });
  });

  it.each([
    ["a fenced block of `>` lines", "```text\n" + ">".repeat(200) + "\n" + "- ".repeat(100) + "\n```"],
    ["a rule of stars", "* ".repeat(200)],
    ["indented code", "    " + "> ".repeat(100)],
    ["32 levels exactly", nestedList(NESTING_LIMIT)],
    ["a setext underline", "Title\n" + "-".repeat(300)],
  ])("does not count %s past the limit", (_, text) => {
    expect(sectionShape(text).depth).toBeLessThanOrEqual(NESTING_LIMIT);
    expect(sectionShapeProblems("Evidence", text).filter((p) => /nests/.test(p.message))).toEqual([]);
  });

  it("counts marks per paragraph and blocks per section", () => {
    expect(sectionShape("*a".repeat(MARKS_LIMIT + 1)).marks).toBe(MARKS_LIMIT + 1);
    expect(markdownIsSafe("*a".repeat(MARKS_LIMIT + 1))).toBe(false);
    expect(markdownIsSafe(("*a".repeat(MARKS_LIMIT / 2) + "\n\n").repeat(4))).toBe(true);
    expect(markdownIsSafe("[".repeat(90_000))).toBe(false);
    expect(markdownIsSafe("> x\n\n".repeat(BLOCKS_LIMIT + 1))).toBe(false);
    expect(markdownIsSafe("- item\n".repeat(BLOCKS_LIMIT))).toBe(true);
    expect(sectionShapeProblems("Notes", "> x\n\n".repeat(BLOCKS_LIMIT + 1))[0]?.line).toBe(2 * BLOCKS_LIMIT + 1);
  });

  it("finds Unicode line separators, and agents' text has a space in their place", () => {
    const forged = "Measured on the bench.\u2028## Evidence\u2028Nothing was measured.";
    expect(sectionShape(forged).separatorLine).toBe(1);
    expect(sectionShapeProblems("Decision", forged)).toEqual([
      { line: 1, message: expect.stringMatching(/^Decision contains a Unicode line or paragraph separator \(U\+2028/) },
    ]);
    for (const c of ["\u2029", "\u0085"]) expect(sectionShape(`a\nb${c}c`).separatorLine).toBe(2);
    expect(withoutLineSeparators(forged)).toBe("Measured on the bench. ## Evidence Nothing was measured.");
  });

  it("refuses nothing in the archive's own notes", () => {
    const dir = path.join(process.cwd(), "content", "notes");
    for (const file of fs.readdirSync(dir)) {
      const parsed = parseNote(fs.readFileSync(path.join(dir, file), "utf8"));
      if (!parsed.ok) continue;
      for (const { key, heading } of SECTIONS) expect(sectionShapeProblems(heading, parsed.note.sections[key]), `${file} ${key}`).toEqual([]);
    }
  });

  it("takes one linear pass: 100 KB of hostile text in milliseconds", () => {
    for (const text of [">".repeat(100_000), "- ".repeat(50_000), nestedList(300), "*a".repeat(50_000), "\n".repeat(100_000)]) {
      const started = performance.now();
      sectionShape(text);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});
