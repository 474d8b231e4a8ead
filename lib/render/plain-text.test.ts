import { describe, expect, it } from "vitest";
import { markdownToLine, markdownToText } from "./plain-text";

describe("markdownToText", () => {
  const md = [
    "Call attention **sparse** only when the _backend's_ work is sparse; see `qsa_kernel` and [AFN-011](/notes/AFN-011).",
    "",
    "### Why",
    "",
    "- first point with ~~old~~ text",
    "- second point",
    "  1. nested ordered",
    "",
    "```c",
    "int x = 1; // **not emphasis**",
    "```",
    "",
    "> quoted words",
    "",
    "| key | value |",
    "| --- | ----- |",
    "| a   | b     |",
    "",
    "![a diagram](diagram.png) and <b>bold html</b> and <https://example.org>",
  ].join("\n");
  const text = markdownToText(md);

  it("keeps every word a reader sees", () => {
    for (const words of [
      "Call attention sparse only",
      "backend's work",
      "qsa_kernel",
      "AFN-011",
      "Why",
      "first point with old text",
      "nested ordered",
      "quoted words",
      "a diagram",
      "bold html",
      "https://example.org",
    ]) {
      expect(text).toContain(words);
    }
  });

  it("drops emphasis marks, backticks and link brackets but keeps link targets", () => {
    const prose = text.replace(/ {4}int x = 1;.*$/m, ""); // code keeps its own characters
    expect(prose).not.toMatch(/\*\*|(^|\s)_\w|`|\]\(|<b>|~~|!\[/);
    expect(text).toContain("AFN-011 (/notes/AFN-011)");
    // An autolink is not repeated as "url (url)".
    expect(text).not.toContain("https://example.org (https://example.org)");
  });

  it("keeps blocks apart: paragraphs, list items on their own lines, code indented and verbatim", () => {
    // A heading keeps its level: a bare line would read like the name of a note's section in the .txt formats.
    expect(text).toMatch(/sparse;.*\n\n### Why\n\n- first point/s);
    expect(text).toContain("- second point\n  1. nested ordered");
    expect(text).toContain("    int x = 1; // **not emphasis**");
    expect(text).toContain("key | value\na | b");
  });

  it("gives one line for capsule fields", () => {
    expect(markdownToLine("Line one\n\n- two\n- three")).toBe("Line one - two - three");
    expect(markdownToLine("")).toBe("");
  });
});
