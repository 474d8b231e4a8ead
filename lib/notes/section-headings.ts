import type { Root } from "mdast";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { markdownIsSafe } from "./section-shape";

/**
 * Headings of level 1 and 2 belong to the note itself: its title (`# AFN-016: …` in the Markdown an
 * agent reads) and its sections (`## Decision` …). Inside a section, such a heading forges a new
 * section for every reader of the Markdown (the .md twin, llms-full.txt, the MCP resources), even
 * though the HTML page demotes it to h3. Besides `## Results`, Markdown has two quieter ways to
 * write one: `# Results`, and the setext form, a line underlined with `---` or `===`:
 *
 *     status: verified-structural
 *     ---
 *
 * This module finds them with the Markdown parser the pages render with (a `---` after a list or
 * a blank line is a rule, not a heading), and rewrites the quiet forms as `### …`, the heading a
 * section may have, for notes that reached the repository without the studio.
 */

export type ReservedHeading = {
  /** 1-based line within the section's text where the heading starts. */
  line: number;
  /** Lines it spans: 1 for `# …`, the text lines plus the underline for the setext form. */
  lines: number;
  depth: 1 | 2;
  /** The underline of a setext heading ("---", "==="); null for `#`/`##`. */
  underline: string | null;
  /** The heading's words, as a `### ` line would carry them. */
  text: string;
};

const parser = unified().use(remarkParse).use(remarkGfm);

// Most sections have no line that could end a setext heading or open a `#`/`##` one: those never
// reach the parser (the schema runs on every keystroke in the editor and on every note read).
const CANDIDATE = /^ {0,3}(?:(?:=+|-+)[ \t]*$|#{1,2}(?:[ \t]|$))/m;

/** Every level-1 or level-2 heading at the top of a section's Markdown, in order. */
export function reservedHeadings(markdown: string): ReservedHeading[] {
  // Text the parser cannot be trusted with is never parsed (./section-shape.ts); a save refuses it anyway.
  if (!CANDIDATE.test(markdown) || !markdownIsSafe(markdown)) return [];
  const source = markdown.split("\n");
  const tree = parser.parse(markdown) as Root;
  const found: ReservedHeading[] = [];
  for (const node of tree.children) {
    if (node.type !== "heading" || node.depth > 2 || !node.position) continue;
    const start = node.position.start.line;
    const end = node.position.end.line;
    const lines = source.slice(start - 1, end);
    // An ATX heading is one line; a setext heading is its text lines and the underline.
    const setext = end > start;
    const text = setext
      ? lines
          .slice(0, -1)
          .map((l) => l.trim())
          .join(" ")
      : (lines[0] ?? "")
          .replace(/^ {0,3}#{1,2}(?=[ \t]|$)/, "")
          .replace(/[ \t]+#+[ \t]*$|^[ \t]*#+[ \t]*$/, "")
          .trim();
    const underline = setext ? ((lines.at(-1) ?? "").trim()[0] === "=" ? "===" : "---") : null;
    found.push({ line: start, lines: end - start + 1, depth: node.depth as 1 | 2, underline, text });
  }
  return found;
}

/** Why a section may not hold this heading, and what to write instead: one sentence for a field error. */
export function reservedHeadingMessage(section: string, h: ReservedHeading): string {
  const what = h.depth === 1 ? "a new title" : "a new section";
  const instead = h.text ? `"### ${h.text}"` : "###";
  if (h.underline) {
    const rule = h.underline === "---" ? `, or leave a blank line above the --- for a horizontal rule` : "";
    return `${section} contains a level-${h.depth} heading on line ${h.line}: the ${h.underline} under "${h.text}" makes it ${what} for anyone reading the note's Markdown; write ${instead} for a heading inside the section${rule}`;
  }
  const marks = "#".repeat(h.depth);
  return `${section} contains a level-${h.depth} heading on line ${h.line} ("${marks} …"), which reads as ${what}; use ### for headings inside a section`;
}

/**
 * The section with its `#` and setext headings written as `### …` (what the page shows: h3), and
 * the ones it rewrote. `##` lines are left alone: in a note file they are the section headings
 * themselves, and one inside a section stays an error the writer fixes.
 */
export function demoteQuietHeadings(markdown: string): { text: string; demoted: ReservedHeading[] } {
  const demoted = reservedHeadings(markdown).filter((h) => h.underline !== null || h.depth === 1);
  if (demoted.length === 0) return { text: markdown, demoted };
  const lines = markdown.split("\n");
  for (const h of [...demoted].reverse()) lines.splice(h.line - 1, h.lines, h.text ? `### ${h.text}` : "###");
  return { text: lines.join("\n"), demoted };
}
