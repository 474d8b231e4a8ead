import { describe, expect, it } from "vitest";
import { SVG_LIMITS } from "@/lib/rules/images";
import { svgOverLimit } from "./svg-scan";

/**
 * The count before parsing never counts fewer elements or less nesting than the HTML parser that
 * DOMPurify uses would build: each case below is a way to nest deep that a naive count misses.
 */

const svg = (body: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${body}</svg>`);
const limit = (body: string) => svgOverLimit(svg(body))?.limit ?? null;
const deep = SVG_LIMITS.maxDepth + 5;

describe("counting an SVG before it is parsed", () => {
  it.each([
    ["closed groups", "<g></g>".repeat(deep), null],
    ["self-closed shapes", "<rect/>".repeat(deep), null],
    ["nested groups", "<g>".repeat(deep), "depth"],
    ["end tags that close nothing", "<g></x>".repeat(deep), "depth"],
    ["a slash that ends an unquoted value, not the tag", "<g a=b/>".repeat(deep), "depth"],
    ['a ">" inside a quoted value', `<g title="a>b">`.repeat(deep), "depth"],
    ["HTML inside a foreignObject, where /> closes nothing", `<foreignObject>${"<div/>".repeat(deep)}</foreignObject>`, "depth"],
    ["HTML void elements", `<foreignObject><div>${"<br>".repeat(deep)}</div></foreignObject>`, null],
    ["an HTML element breaking out of SVG", `<p>${"<g/>".repeat(deep)}`, "depth"],
    ["markup inside comments and declarations", `<!-- ${"<g>".repeat(deep)} --><!DOCTYPE x><?pi ?>`, null],
    ["too many elements", "<rect/>".repeat(SVG_LIMITS.maxElements + 1), "elements"],
    [
      "too many attributes on one element",
      `<rect ${Array.from({ length: SVG_LIMITS.maxElementAttributes + 1 }, (_, i) => `a${i}`).join(" ")}/>`,
      "element-attributes",
    ],
  ])("%s", (_, body, expected) => {
    expect(limit(body)).toBe(expected);
  });

  it("refuses by size before reading a character", () => {
    expect(svgOverLimit(Buffer.alloc(SVG_LIMITS.maxBytes + 1, 0x20))).toMatchObject({
      limit: "bytes",
      message: expect.stringMatching(/more than the 2\.0 MB an SVG may be/),
    });
  });

  it("reads 2 MB of markup in well under a second", () => {
    const body = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg">${'<path d="M0 0L1 1"/>'.repeat(9_000)}<text>${"x".repeat(1_800_000)}</text></svg>`);
    const started = performance.now();
    expect(svgOverLimit(body)).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
