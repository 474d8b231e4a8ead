import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import MarkdownField from "@/components/studio/markdown-field";
import { liveMarkup, XSS_PAYLOADS } from "@/lib/testing/xss";

/** The section editor as it renders its preview: the real component, in preview mode. */
function preview(markdown: string): string {
  const html = renderToStaticMarkup(
    createElement(MarkdownField, { id: "evidence", value: markdown, onChange: () => {}, invalid: false, readOnly: true }),
  );
  // The preview's own element, without the editor's toolbar and drag bar around it.
  const start = html.indexOf('<div class="wmde-markdown ');
  const end = html.indexOf('<div class="w-md-editor-bar', start);
  if (start < 0) throw new Error(`no preview in: ${html.slice(0, 3000)}`);
  return html.slice(start, end);
}

describe("studio preview", () => {
  it.each(XSS_PAYLOADS.map(([name, payload]) => [name, payload] as const))("%s", (_name, payload) => {
    const html = preview(payload);
    expect(liveMarkup(html), html).toEqual([]);
  });
});

describe("studio preview: the public pages' rules", () => {
  it("shows data: and vbscript: links as text, never as anchors with that target", () => {
    const html = preview("[a](data:text/html,<b>x</b>) [b](vbscript:msgbox(1)) [c](DATA:text/html,x) [d](javascript:alert(1))");
    expect(html).not.toMatch(/href="(?:data|vbscript|javascript):/i);
    expect(html).toContain(">a</a>");
    expect(html).toContain(">b</a>");
  });

  it("keeps safe links, demotes headings below the section's own, and shows raw HTML as text", () => {
    const html = preview("## Inside\n\n<b>bold?</b> [docs](https://example.org/docs) and AFN-016");
    expect(html).toContain("<h3");
    expect(html).not.toContain("<h2");
    expect(html).toContain("&lt;b&gt;bold?&lt;/b&gt;");
    expect(html).toMatch(/<a href="https:\/\/example.org\/docs" rel="nofollow noopener noreferrer">docs<\/a>/);
    expect(html).toContain('<a href="/notes/AFN-016"');
  });
});
