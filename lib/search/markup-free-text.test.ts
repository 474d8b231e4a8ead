import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { markdownToPlainText } from "@/lib/render/plain-text";
import { sectionPlainText } from "./markup-free-text";

// Pieces a section is made of: words, punctuation, line starts that may or may not be markup.
const PIECES = [
  "cache",
  "state",
  "AFN-016",
  "2,051",
  "don't",
  "é",
  " ",
  " ",
  "  ",
  "\n",
  "\n",
  "\n\n",
  "- ",
  "-",
  "--",
  "1. ",
  "2)",
  "* ",
  "+ ",
  "    ",
  "\t",
  ".",
  ",",
  ";",
  ":",
  "?",
  '"',
  "'",
  "=",
  "===",
  "---",
  "> ",
  "`x`",
  "*em*",
  "_u_",
  "[a](b)",
  "<br>",
  "&amp;",
  "#",
  "https://example.org/x",
  "www.example.org",
  "~",
  "|",
  "!",
];

describe("sectionPlainText", () => {
  it("is exactly the parser's plain text, for any mix of prose and markup", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (parts) => {
        const md = parts.join("");
        expect(sectionPlainText(md)).toBe(markdownToPlainText(md));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a plain list and paragraphs without the parser, as the parser would", () => {
    const md = "First paragraph of prose.\n\nSecond one,\nwrapped.\n\n- an item\n- another item\n";
    expect(sectionPlainText(md)).toBe("First paragraph of prose. Second one, wrapped. an item another item");
    expect(sectionPlainText(md)).toBe(markdownToPlainText(md));
  });

  it("reads what the property once found as the parser does: a bullet and a tab, a table row without pipes", () => {
    for (const md of ["-\tcache", "cache\n:-", "cache\n-:"]) expect(sectionPlainText(md), JSON.stringify(md)).toBe(markdownToPlainText(md));
    expect(sectionPlainText("-\tcache")).toBe("cache");
  });
});
