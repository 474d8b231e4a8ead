import { describe, expect, it } from "vitest";
import { markdownToPlainText } from "@/lib/render/plain-text";
import { phaseUrl, segment, slug, tagHasPage, tagUrl } from "./urls";

describe("public URLs", () => {
  it("turn tags and phases into readable, shareable paths", () => {
    expect(tagUrl("sparse attention")).toBe("/tags/sparse-attention");
    expect(tagUrl("tokenizer.json")).toBe("/tags/tokenizer-json");
    expect(tagUrl("Python str.strip")).toBe("/tags/python-str-strip");
    expect(phaseUrl("0–3")).toBe("/phases/0-3");
    expect(phaseUrl("8–11 performance architecture")).toBe("/phases/8-11-performance-architecture");
    expect(slug("Métal")).toBe("metal");
    expect(slug("…")).toBe(encodeURIComponent("…"));
  });

  it("give a tag of dots alone no page: /tags/. and /tags/.. are folders to every browser", () => {
    expect([".", "..", " .. "].map(tagHasPage)).toEqual([false, false, true]);
    expect(["...", "C++", "?..", "a..b", ".net"].every(tagHasPage)).toBe(true);
    expect(tagUrl("...")).toBe("/tags/...");
  });

  it("read a malformed escape literally instead of failing the request", () => {
    expect(segment("sparse%20attention")).toBe("sparse attention");
    expect(segment("%E0%A4%A")).toBe("%E0%A4%A");
  });
});

describe("markdownToPlainText", () => {
  it("keeps the words a reader sees and drops the markup", () => {
    expect(markdownToPlainText("A **bold** [link](https://x.org) and `code`.\n\n- one\n- two\n\n| a | b |\n| - | - |\n| 1 | 2 |")).toBe(
      "A bold link and code. one two a b 1 2",
    );
    expect(markdownToPlainText("A Vec<T> and <b>b</b>")).toBe("A Vec<T> and <b>b</b>");
    expect(markdownToPlainText("<div>x</div>\n\nNext")).toBe("<div>x</div> Next");
    expect(markdownToPlainText("")).toBe("");
  });
});
