import { describe, expect, it } from "vitest";
import { liveMarkup, XSS_PAYLOADS } from "@/lib/testing/xss";
import { renderMarkdown } from "./markdown";

function expectInert(html: string) {
  expect(liveMarkup(html)).toEqual([]);
}

describe("renderMarkdown: GFM", () => {
  it("renders tables with alignment, fenced code with its language, nested and task lists", () => {
    const html = renderMarkdown(
      [
        "| Path | Keys |",
        "| :--- | ---: |",
        "| dense | 2,051 |",
        "",
        "```cpp",
        "if (a < b && c) return;",
        "```",
        "",
        "1. first",
        "   - nested",
        "2. second",
        "",
        "- [x] done",
        "- [ ] open",
        "",
        "~~struck~~ and **bold** and `code`",
      ].join("\n"),
    );
    expect(html).toContain("<table>");
    expect(html).toContain('<th align="left">Path</th>');
    expect(html).toContain('<td align="right">2,051</td>');
    // Highlighted (lib/render/code.ts): the text is all there, escaped, under a language label.
    expect(html).toContain('<span class="code-language">C++</span>');
    expect(html.replace(/<\/?span[^>]*>/g, "")).toContain("if (a &#x3C; b &#x26;&#x26; c) return;");
    expect(html).toMatch(/<ol>\s*<li>first\s*<ul>\s*<li>nested<\/li>/);
    expect(html).toContain('<input type="checkbox" checked disabled> done');
    expect(html).toContain("<del>struck</del>");
    expect(html).toContain("<strong>bold</strong>");
  });

  it("keeps the page's heading levels: a heading inside a section is h3 or lower", () => {
    expect(renderMarkdown("# Big\n\n### Sub\n\n#### Deeper")).toBe("<h3>Big</h3>\n<h3>Sub</h3>\n<h4>Deeper</h4>");
  });

  it("shows raw HTML as the text it is, so generics and tags in prose are not swallowed", () => {
    const html = renderMarkdown("A `Vec<T>` and a Vec<T> and <b>bold</b>");
    expect(html).toBe("<p>A <code>Vec&#x3C;T></code> and a Vec&#x3C;T> and &#x3C;b>bold&#x3C;/b></p>");
  });

  it("gives footnotes ids under the section's prefix, and links them to each other", () => {
    const html = renderMarkdown("Claim.[^1]\n\n[^1]: Source.", { idPrefix: "evidence" });
    expect(html).toContain('href="#evidence-fn-1"');
    expect(html).toContain('id="evidence-fn-1"');
    expect(html).toContain('href="#evidence-fnref-1"');
    expect(html).toContain('id="evidence-fnref-1"');
  });

  it("marks links that leave the archive", () => {
    expect(renderMarkdown("[spec](https://example.org/a)")).toBe('<p><a href="https://example.org/a" rel="nofollow noopener noreferrer">spec</a></p>');
  });
});

describe("renderMarkdown: note mentions", () => {
  it("links every AFN-NNN mention to its note page", () => {
    expect(renderMarkdown("See AFN-011, then (AFN-017).")).toBe(
      '<p>See <a href="/notes/AFN-011">AFN-011</a>, then (<a href="/notes/AFN-017">AFN-017</a>).</p>',
    );
  });

  it("leaves IDs in code, inside links, inside longer words and outside the linkable set as text", () => {
    const html = renderMarkdown("`AFN-011` [the note AFN-012](https://x.org) AFN-013-b AFN-014 AFN-099", {
      linkable: new Set(["AFN-011", "AFN-012", "AFN-013", "AFN-014"]),
    });
    expect(html).toContain("<code>AFN-011</code>");
    expect(html).toContain(">the note AFN-012</a>");
    expect(html).toContain(" AFN-013-b ");
    expect(html).toContain('<a href="/notes/AFN-014">AFN-014</a>');
    expect(html).not.toContain("/notes/AFN-099");
  });
});

describe("renderMarkdown: hostile input comes out inert", () => {
  for (const [name, payload] of XSS_PAYLOADS) {
    it(name, () => {
      const html = renderMarkdown(`Before ${payload} after`);
      expectInert(html);
      const alone = renderMarkdown(payload);
      expectInert(alone);
    });
  }

  it("keeps the link text of a refused link, so the reader still sees what was written", () => {
    expect(renderMarkdown("[click](javascript:alert(1))")).toBe("<p><a>click</a></p>");
    expect(renderMarkdown("<script>alert(1)</script>")).toBe("&#x3C;script>alert(1)&#x3C;/script>");
  });

  it("the checker itself catches what it must (a real handler, a real javascript: URL)", () => {
    expect(() => expectInert('<img src="x" onerror="alert(1)">')).toThrow();
    expect(() => expectInert('<a href="jav&#x61;script:alert(1)">x</a>')).toThrow();
    expect(() => expectInert("<svg><foreignObject><div>x</div></foreignObject></svg>")).toThrow();
    expect(() => expectInert('<svg><rect fill="url(https://evil.example/x)"/></svg>')).toThrow();
    expect(() => expectInert('<svg><animate attributeName="href" values="javascript:alert(1)"/></svg>')).toThrow();
  });
});

describe("renderMarkdown: repeated renders", () => {
  it("gives the same HTML from its cache, and a different one when a mention stops being linkable", () => {
    const md = "Depends on AFN-011 and AFN-012.";
    const both = new Set(["AFN-011", "AFN-012"]);
    const first = renderMarkdown(md, { linkable: both, idPrefix: "x" });
    expect(renderMarkdown(md, { linkable: new Set(both), idPrefix: "x" })).toBe(first);
    const one = renderMarkdown(md, { linkable: new Set(["AFN-011"]), idPrefix: "x" });
    expect(one).toContain('href="/notes/AFN-011"');
    expect(one).not.toContain('href="/notes/AFN-012"');
    expect(renderMarkdown("x[^1]\n\n[^1]: y", { idPrefix: "a" })).not.toBe(renderMarkdown("x[^1]\n\n[^1]: y", { idPrefix: "b" }));
  });
});
