import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import MarkdownField from "@/components/studio/markdown-field";
import { decodeEntities, liveMarkup, tagsOf, XSS_PAYLOADS } from "@/lib/testing/xss";
import { renderMarkdown } from "./markdown";
import { loadPreviewDiagrams } from "./preview";
import { loadPreviewGrammar } from "./preview-code";

/** The section editor as it renders its preview: the real component, in preview mode. */
function preview(markdown: string): string {
  const html = renderToStaticMarkup(createElement(MarkdownField, { id: "evidence", value: markdown, onChange: () => {}, invalid: false, readOnly: true }));
  // The preview's own element, without the editor's toolbar and drag bar around it.
  // The preview's wrapper carries attributes before its class (aria-busy while the diagram chunk loads).
  const start = html.search(/<div [^>]*class="wmde-markdown /);
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
  it("shows text nested past the limit as plain code instead of overflowing the stack (issue 32, finding 3)", () => {
    const html = preview(">".repeat(3000));
    expect(html).toContain("<pre");
    expect(html).toContain("&gt;".repeat(50));
    expect(html).not.toContain("<blockquote");
  });

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

describe("studio preview: diagrams as the public page draws them", () => {
  const flowchart = "```mermaid\nflowchart LR\n  A[Draft] --> B[Published]\n```";
  const invalid = "```mermaid\nnot a diagram at all\n```";

  it("before the renderer has loaded, a block shows its source and says it is pending", async () => {
    // This test file's module state: nothing has loaded the renderer yet (previewOptions loads it only in a browser).
    const html = preview(flowchart);
    expect(html).toContain('class="diagram diagram-pending"');
    expect(html).toContain("flowchart LR");
    await loadPreviewDiagrams();
  });

  it("draws a flowchart as an inline SVG, and refuses an invalid block with the page's own note and source", async () => {
    await loadPreviewDiagrams();
    const drawn = preview(flowchart);
    expect(tagsOf(drawn).filter((t) => t.name === "svg")).toHaveLength(1);
    expect(drawn).toContain(">Draft</text>");
    expect(liveMarkup(drawn)).toEqual([]);
    const refused = preview(invalid);
    expect(refused).toContain('role="note"');
    expect(refused).toContain("This diagram could not be drawn: Invalid mermaid header");
    expect(refused).toContain("not a diagram at all");
    // The same words as the published page.
    const page = renderMarkdown(invalid);
    const note = (html: string) => decodeEntities(/<p role="note"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? "");
    expect(note(refused)).toBe(note(page));
  });

  it.each(XSS_PAYLOADS.filter(([name]) => name.startsWith("mermaid")))("drawn, still inert: %s", async (_name, payload) => {
    await loadPreviewDiagrams();
    expect(liveMarkup(preview(payload))).toEqual([]);
  });
});

describe("studio preview: code highlighted as the public page highlights it", () => {
  const code = "```ts\n// the scheduler rule\nexport const limit: number = 32;\n```\n\n```rust\nfn main() {}\n```";
  const block = (html: string, fence: string) =>
    html
      .split('<div class="code-block">')
      .find((part) => part.includes(`<code class="language-${fence}">`))
      ?.replace(/<\/pre><\/div>[\s\S]*$/, "") ?? "";

  it("shows a block plain under its label until its grammar has loaded, then the page's very spans", async () => {
    const before = preview(code);
    expect(block(before, "ts")).toContain('<span class="code-language">TypeScript</span>');
    expect(block(before, "ts")).not.toMatch(/class="hl-/);

    expect(await loadPreviewGrammar("ts")).toBe(true);
    const after = preview(code);
    const page = renderMarkdown(code);
    expect(block(after, "ts")).toMatch(/<span class="hl-[0-9a-f]+ hd-[0-9a-f]+/);
    expect(block(after, "ts")).toBe(block(page, "ts"));
    // Only the grammar asked for: Rust stays plain until a Rust block asks for its own chunk.
    expect(block(after, "rust")).not.toMatch(/class="hl-/);
    expect(await loadPreviewGrammar("nonsense")).toBe(false);
  });
});
