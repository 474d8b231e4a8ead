import { describe, expect, it } from "vitest";
import { prefersMarkdown } from "./negotiate";

describe("prefersMarkdown", () => {
  it.each([
    ["text/markdown", true],
    ["text/x-markdown", true],
    ["text/markdown, text/html;q=0.9", true],
    ["text/markdown, text/html", true],
    ["text/html, text/markdown", false],
    ["text/html;q=0.5, text/markdown;q=0.8", true],
    ["text/markdown;q=0, */*", false],
    // What browsers send: HTML stays.
    ["text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", false],
    ["*/*", false],
    ["", false],
    [null, false],
    ["text/markdown;q=0.9, */*;q=0.8", true],
    ["text/markdown;q=0.5, text/*", false],
  ])("Accept: %s → %s", (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});
