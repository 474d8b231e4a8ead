import { readFileSync } from "node:fs";
import path from "node:path";
import type { Element } from "hast";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { describe, expect, it } from "vitest";
import { liveMarkup, tagsOf } from "@/lib/testing/xss";
import { DIAGRAM_LIMITS } from "@/lib/rules/diagrams";
import { safeDiagramSvg } from "./diagram-svg";
import { drawDiagram } from "./diagrams";
import { renderMarkdown } from "./markdown";
import { renderSection } from "./sections";

/** ```mermaid blocks drawn on the server as inline SVG, or shown as source with the reason. */

const FLOWCHART = "```mermaid\nflowchart LR\n  draft[Draft] -->|submit| review{Review}\n  review -->|approve| main[(main)]\n  review -->|changes| draft\n```";
const SEQUENCE = "```mermaid\nsequenceDiagram\n  participant A as Author\n  participant S as Studio\n  A->>S: save draft\n  S-->>A: revision 3\n```";

describe("mermaid blocks", () => {
  it("a flowchart and a sequence diagram each become an inline SVG with their labels, and the source one click away", () => {
    const html = renderMarkdown(`${FLOWCHART}\n\nBetween.\n\n${SEQUENCE}`, { idPrefix: "evidence" });
    const svgs = tagsOf(html).filter((t) => t.name === "svg");
    expect(svgs).toHaveLength(2);
    expect(html).toContain('role="img" aria-label="Flowchart (source below)"');
    expect(html).toContain('aria-label="Sequence diagram (source below)"');
    for (const label of ["Draft", "Review", "submit", "approve", "Author", "Studio", "save draft", "revision 3"]) expect(html).toContain(`>${label}</text>`);
    expect(html).toContain("<summary>Diagram source (Mermaid)</summary>");
    expect(html).toContain("A->>S: save draft");
    expect(liveMarkup(html)).toEqual([]);
  });

  it("a block that does not parse shows its source as written and says why, with no drawing", () => {
    const html = renderMarkdown("```mermaid\nthis is not a diagram\n  A --> B\n```");
    expect(html).toContain('<p role="note" class="diagram-message">This diagram could not be drawn: Invalid mermaid header');
    expect(html).toContain("Its Mermaid source is shown as written.");
    expect(html).toContain('<code class="language-mermaid">this is not a diagram\n  A --> B</code>');
    expect(html).not.toContain("<svg");
  });

  it("an empty, an oversized or a too dense block is refused with a reason, before drawing", () => {
    expect(renderMarkdown("```mermaid\n```")).toContain("could not be drawn: the block is empty");
    const big = `flowchart LR\n${"  A --> B\n".repeat(DIAGRAM_LIMITS.source / 10 + 1)}`;
    expect(drawDiagram(big)).toEqual({ ok: false, error: "the source is longer than 10,000 characters" });
    const edges = (n: number) => `flowchart LR\n${Array.from({ length: n }, (_, i) => `  n${i % 40} --> n${(i * 7 + 3) % 40}`).join("\n")}`;
    expect(drawDiagram(edges(DIAGRAM_LIMITS.links + 1))).toEqual({
      ok: false,
      error: `it draws ${DIAGRAM_LIMITS.links + 1} links, more than the ${DIAGRAM_LIMITS.links} a page draws`,
    });
    expect(drawDiagram(edges(30)).ok).toBe(true);
    const lone = `flowchart LR\n${Array.from({ length: DIAGRAM_LIMITS.nodes + 1 }, (_, i) => `  n${i}`).join("\n")}`;
    expect(drawDiagram(lone)).toEqual({
      ok: false,
      error: `it draws ${DIAGRAM_LIMITS.nodes + 1} nodes, more than the ${DIAGRAM_LIMITS.nodes} a page draws`,
    });
  });

  it("a committed fan-out of 352 characters (900 links) is shown as its source with the reason, at once, never laid out", async () => {
    const fan = `flowchart LR\n${Array.from({ length: 30 }, (_, i) => `a${i}`).join(" & ")} --> ${Array.from({ length: 30 }, (_, i) => `b${i}`).join(" & ")}`;
    const started = performance.now();
    const html = await renderSection(`Before.\n\n\`\`\`mermaid\n${fan}\n\`\`\`\n\nAfter.`, { idPrefix: "evidence" });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(html).toContain(
      '<p role="note" class="diagram-message">This diagram could not be drawn: it draws 900 links, more than the 120 a page draws (an arrow between &#x26; groups draws a link from every node of one to every node of the other). Its Mermaid source is shown as written.</p>',
    );
    expect(html).toContain(`<code class="language-mermaid">${fan.replace(/&/g, "&#x26;")}</code>`);
    expect(html).not.toContain("<svg");
    expect(html).toContain("<p>After.</p>");
  });

  it("two diagrams on a page have their own marker ids, and every marker reference points into its own drawing", () => {
    const html = renderMarkdown(`${FLOWCHART}\n\n${FLOWCHART}`, { idPrefix: "decision" });
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    const figures = html.split("<figure").slice(1);
    figures.forEach((figure, i) => {
      const own = new Set([...figure.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
      const refs = [...figure.matchAll(/url\(#([^)]+)\)/g)].map((m) => m[1]);
      expect(refs.length, `figure ${i}`).toBeGreaterThan(0);
      for (const ref of refs) expect(own.has(ref), `${ref} in figure ${i}`).toBe(true);
    });
  });

  it("the same source is drawn once and then served from the cache", () => {
    const source = "flowchart TD\n  cache --> hit";
    expect(drawDiagram(source)).toBe(drawDiagram(source));
  });

  it("follows the scheme: colours are the stylesheet's variables, with a light fallback for readers without it", () => {
    const html = renderMarkdown(`${FLOWCHART}\n\n${SEQUENCE}`);
    const css = readFileSync(path.join(__dirname, "figures.css"), "utf8");
    const used = new Set([...html.matchAll(/(?:fill|stroke)="var\((--diagram-[a-z-]+), #[0-9a-f]{6}\)"/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(3);
    for (const variable of used) expect(css, `${variable} is not defined`).toContain(`${variable}:`);
    // No colour left that ignores the scheme, and nothing the renderer styled globally (<style>).
    expect(html).not.toMatch(/(?:fill|stroke)="#/);
    expect(html).not.toContain("<style");
  });
});

describe("the SVG a renderer returns is rebuilt from shapes only", () => {
  const hostile = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)" style="background:url(https://evil.example/a)">
    <style>@import url('https://evil.example/font.css'); svg { display: none }</style>
    <script>alert(1)</script>
    <defs><marker id="m"><path d="M0 0 L1 1"/></marker></defs>
    <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml" onclick="alert(1)">html</div></foreignObject>
    <a href="javascript:alert(1)"><text x="1" y="1">link</text></a>
    <image href="https://evil.example/track.png" width="1" height="1"/>
    <use href="https://evil.example/sprite.svg#x"/>
    <rect x="1" y="1" width="2" height="2" fill="url(https://evil.example/p)" stroke="javascript:alert(1)" onmouseover="alert(1)" class="node" data-x="y"/>
    <line x1="0" y1="0" x2="1" y2="1" marker-end="url(#m)" marker-start="url(https://evil.example/m)"/>
    <text x="javascript:1" y="2" fill="var(--_text)">&lt;script&gt;alert(1)&lt;/script&gt;<animate attributeName="href" values="javascript:alert(1)"/></text>
  </svg>`;

  it("keeps geometry, local markers and text; drops script, style, foreignObject, links, images, handlers and outside URLs", () => {
    const svg: Element = safeDiagramSvg(hostile, "p-");
    const html = unified()
      .use(rehypeStringify)
      .stringify({ type: "root", children: [svg] });
    expect(liveMarkup(html)).toEqual([]);
    const names = new Set(tagsOf(html).map((t) => t.name));
    expect([...names].sort()).toEqual(["defs", "line", "marker", "path", "rect", "svg", "text"]);
    expect(html).toContain('<marker id="p-m">');
    expect(html).toContain('marker-end="url(#p-m)"');
    expect(html).not.toContain("marker-start");
    expect(html).not.toContain("evil.example");
    expect(html).not.toMatch(/javascript|onload|onclick|onmouseover|style=|class=|data-/i);
    expect(html).toContain("&#x3C;script>alert(1)&#x3C;/script>");
    expect(html).toContain('fill="var(--diagram-text, #1c1c1a)"');
  });
});
