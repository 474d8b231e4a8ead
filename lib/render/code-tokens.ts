import type { Element, ElementContent, Root as HastRoot } from "hast";
import type { HighlighterCore } from "shiki/core";

/**
 * The part of code highlighting the page and the studio preview share, with no grammar in it:
 * shiki's tokens as spans with colour classes (`hl-<light colour>`, `hd-<dark colour>`, mapped to
 * colours by ./figures.css), and the step that turns each fenced block into a labelled, focusable
 * `<pre>`. The server hands it a highlighter with every grammar (./code.ts); the preview one with
 * the grammars it has loaded so far (./preview-code.ts).
 */

export type Highlighted = { label: string; children: ElementContent[] };
/** A block's text and fence name → its highlighted spans, or null to show it plain. */
export type Highlight = (code: string, fence: string) => Highlighted | null;

/**
 * Highlighting costs about 45 µs a character with a large grammar (C++, TypeScript) on this kind of
 * machine, so it is bounded per block and per section: a block longer than MAX_HIGHLIGHTED
 * characters or MAX_HIGHLIGHTED_LINES lines, and every block after the section has highlighted
 * SECTION_HIGHLIGHT_BUDGET characters, is shown plain (escaped, labelled with its language). Lines
 * longer than MAX_TOKENIZED_LINE are left plain within a highlighted block. A 29 KB, 500-line C++
 * block took 8.3 s of the server; now a section's highlighting is about a second at most.
 */
export const MAX_HIGHLIGHTED = 16_000;
export const MAX_HIGHLIGHTED_LINES = 400;
export const SECTION_HIGHLIGHT_BUDGET = 24_000;
const MAX_TOKENIZED_LINE = 1_000;

/**
 * How long one line may take to tokenize before the rest of it is left plain. Shiki's default (500 ms)
 * is shorter than compiling a large grammar (TypeScript) on first use on a busy machine (grammar
 * rules compile when a line first needs them: seconds at a load average of 20 on 2 cores), which
 * left a block's first line wrongly coloured; a pathological line still stops.
 */
const LINE_TIME_LIMIT_MS = 20_000;

/** Class name of a colour in a scheme: `hl-d73a49` (light), `hd-f97583` (dark). */
export function colorClass(scheme: "light" | "dark", color: string): string {
  return `${scheme === "light" ? "hl" : "hd"}-${color.replace(/^#/, "").toLowerCase()}`;
}

/** `<code>`'s text as spans, one per token, lines separated by "\n"; `grammar` must be loaded in `h`. */
export function tokenSpans(h: HighlighterCore, code: string, grammar: string): ElementContent[] {
  // The colour each theme gives plain text: such tokens get no class and inherit the page's text colour.
  const plain = { light: h.getTheme("github-light").fg.toLowerCase(), dark: h.getTheme("github-dark").fg.toLowerCase() };
  const { tokens } = h.codeToTokens(code, {
    lang: grammar,
    themes: { light: "github-light", dark: "github-dark" },
    defaultColor: false,
    tokenizeTimeLimit: LINE_TIME_LIMIT_MS,
    tokenizeMaxLineLength: MAX_TOKENIZED_LINE,
  });
  const children: ElementContent[] = [];
  tokens.forEach((line, i) => {
    if (i > 0) children.push({ type: "text", value: "\n" });
    for (const token of line) {
      const style = token.htmlStyle ?? {};
      const classes: string[] = [];
      const light = style["--shiki-light"]?.toLowerCase();
      const dark = style["--shiki-dark"]?.toLowerCase();
      if (light && dark && !(light === plain.light && dark === plain.dark)) classes.push(colorClass("light", light), colorClass("dark", dark));
      const fontStyle = `${style["--shiki-light-font-style"] ?? ""} ${style["--shiki-light-font-weight"] ?? ""} ${style["--shiki-light-text-decoration"] ?? ""}`;
      if (/italic/.test(fontStyle)) classes.push("hl-italic");
      if (/bold/.test(fontStyle)) classes.push("hl-bold");
      if (/underline/.test(fontStyle)) classes.push("hl-underline");
      const text: ElementContent = { type: "text", value: token.content };
      children.push(classes.length ? { type: "element", tagName: "span", properties: { className: classes }, children: [text] } : text);
    }
  });
  return children;
}

/**
 * Each fenced block (`<pre><code class="language-x">` as sanitizing left it) highlighted by
 * `highlight` and labelled with its language (`label` names it when `highlight` has no answer yet).
 * Runs after rehype-sanitize and after the diagrams (a mermaid block is a figure by then). Blocks
 * without a language stay as they are; a language without a grammar is labelled but not coloured.
 */
export function codeBlocks(highlight: Highlight, label: (fence: string) => string = (fence) => fence) {
  return (tree: HastRoot) => {
    // What this section may still highlight (see SECTION_HIGHLIGHT_BUDGET).
    let budget = SECTION_HIGHLIGHT_BUDGET;
    const visit = (node: HastRoot | Element) => {
      node.children.forEach((child, i) => {
        if (child.type !== "element") return;
        if (child.tagName !== "pre") return visit(child);
        const code = child.children.find((c): c is Element => c.type === "element" && c.tagName === "code");
        const fence = languageOf(code);
        if (!code || !fence || fence === "mermaid") return;
        const text = code.children
          .map((c) => (c.type === "text" ? c.value : ""))
          .join("")
          .replace(/\n$/, "");
        const highlighted = highlightable(text, budget) ? highlight(text, fence) : null;
        if (highlighted) budget -= text.length;
        node.children[i] = {
          type: "element",
          tagName: "div",
          properties: { className: ["code-block"] },
          children: [
            {
              type: "element",
              tagName: "span",
              properties: { className: ["code-language"] },
              children: [{ type: "text", value: highlighted?.label ?? label(fence) }],
            },
            {
              type: "element",
              tagName: "pre",
              // Focusable: a long line scrolls, and a keyboard user must be able to scroll it.
              properties: { className: ["code", ...(highlighted ? ["highlighted"] : [])], tabIndex: 0 },
              children: [
                { type: "element", tagName: "code", properties: { className: [`language-${fence}`] }, children: highlighted?.children ?? code.children },
              ],
            },
          ],
        };
      });
    };
    visit(tree);
  };
}

/** Whether a block of `text` is highlighted, with `budget` characters left in its section. */
export function highlightable(text: string, budget: number): boolean {
  if (text.length > MAX_HIGHLIGHTED || text.length > budget) return false;
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) if (++lines > MAX_HIGHLIGHTED_LINES) return false;
  return true;
}

function languageOf(code: Element | undefined): string | null {
  const classes = code?.properties.className;
  if (!Array.isArray(classes)) return null;
  for (const c of classes) if (typeof c === "string" && c.startsWith("language-")) return c.slice("language-".length);
  return null;
}
