import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { markdownIsSafe, withoutLineSeparators } from "@/lib/notes/section-shape";

/**
 * Markdown as plain text, the one converter every reader of plain text uses. One parse and one walk,
 * in three styles:
 * - `markdownToPlainText`: the words a reader sees, on one line: no markup, no link targets, raw
 *   HTML as the text it is. Search indexes this and cuts passages from it, so a passage never shows
 *   half a `[link](…)` (lib/search/markup-free-text.ts answers the same without a parse when it can).
 * - `markdownToText`: prose for a language model (the .txt formats): paragraphs, list items and code
 *   keep their shape, emphasis marks, backticks and link syntax go; a link keeps its target in
 *   parentheses, because the target is information and the brackets are not; a heading keeps its
 *   hashes (### or deeper inside a section), so a bare "Results" line inside Evidence does not read
 *   as a new section (issue 14, finding 9); HTML tags go.
 * - `markdownToLine`: that prose on one line, without heading marks or images, for capsule fields
 *   and index entries.
 */

type MdNode = {
  type: string;
  depth?: number;
  value?: string;
  url?: string;
  alt?: string | null;
  ordered?: boolean | null;
  start?: number | null;
  children?: MdNode[];
};

const parser = unified().use(remarkParse).use(remarkGfm);

/**
 * An image in plain text: its alt text by default; the note's .txt names each figure by alt text
 * and URL (`image` given: the source as written → the absolute URL); capsules and index lines
 * carry no image at all, not even its alt text (a figure is not part of a one-line summary).
 */
export type ImageText = (src: string) => string;

type Style = {
  images: "alt" | "none" | ImageText;
  headingMarks: boolean;
  /** A link as `text (url)`; else its text alone. */
  linkTargets: boolean;
  /** Raw HTML as written (the page shows it so); else without its tags. */
  keepHtml: boolean;
  /** List markers (`- `, `1. `) and table cells joined by ` | `; else words only. */
  markers: boolean;
};

const PROSE: Style = { images: "alt", headingMarks: true, linkTargets: true, keepHtml: false, markers: true };
const LINE: Style = { ...PROSE, images: "none", headingMarks: false };
const WORDS: Style = { images: "alt", headingMarks: false, linkTargets: false, keepHtml: true, markers: false };

export function markdownToPlainText(markdown: string): string {
  return oneLine(toText(markdown, WORDS));
}

export function markdownToText(markdown: string, image?: ImageText): string {
  // A Unicode line separator would start a line for some readers only (lib/notes/section-shape.ts).
  return toText(withoutLineSeparators(markdown), image ? { ...PROSE, images: image } : PROSE);
}

/** One line of plain text: for capsule fields and index entries, where a line break is noise (and so is a heading's mark). */
export function markdownToLine(markdown: string): string {
  return oneLine(toText(withoutLineSeparators(markdown), LINE));
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

function toText(markdown: string, style: Style): string {
  if (!markdown.trim()) return "";
  // Text the parser cannot be trusted with is given as written (lib/notes/section-shape.ts): the page shows it so too.
  if (!markdownIsSafe(markdown)) return markdown.trim();
  try {
    return new Walk(style)
      .blocks(parser.parse(markdown) as MdNode)
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  } catch {
    // Never one section taking down a format that lists many notes (llms-full.txt): given as written.
    return markdown.trim();
  }
}

class Walk {
  constructor(private readonly style: Style) {}

  blocks(node: MdNode): string {
    return (node.children ?? [])
      .map((child) => this.block(child))
      .filter((b) => b.trim() !== "")
      .join("\n\n");
  }

  private block(node: MdNode): string {
    switch (node.type) {
      case "heading":
        return this.style.headingMarks ? `${"#".repeat(node.depth ?? 3)} ${this.inline(node).trim()}` : this.inline(node).trim();
      case "paragraph":
        return this.inline(node).trim();
      case "list":
        return this.list(node);
      case "code":
        return indent(node.value ?? "", "    ");
      case "blockquote":
        return indent(this.blocks(node), "  ");
      case "table": {
        const [cells, rows] = this.style.markers ? [" | ", "\n"] : [" ", " "];
        return (node.children ?? []).map((row) => (row.children ?? []).map((cell) => this.inline(cell).trim()).join(cells)).join(rows);
      }
      case "html":
        return this.html(node.value ?? "");
      case "thematicBreak":
      case "definition":
        return "";
      default:
        return node.children ? this.blocks(node) : (node.value ?? "");
    }
  }

  private list(node: MdNode): string {
    let n = node.start ?? 1;
    return (node.children ?? [])
      .map((item) => {
        const marker = !this.style.markers ? "" : node.ordered ? `${n++}. ` : "- ";
        // Items of a tight list are one block each; a loose item's paragraphs stay apart.
        const body = (item.children ?? [])
          .map((child) => this.block(child))
          .filter((b) => b.trim() !== "")
          .join("\n");
        return marker + indent(body, " ".repeat(marker.length)).slice(marker.length);
      })
      .join("\n");
  }

  private inline(node: MdNode): string {
    switch (node.type) {
      case "text":
      case "inlineCode":
        return node.value ?? "";
      case "break":
        return "\n";
      case "html":
        return this.html(node.value ?? "");
      case "image": {
        const images = this.style.images;
        if (images === "none") return "";
        return images === "alt" ? (node.alt ?? "") : `[Image: ${node.alt ?? ""}] (${images(node.url ?? "")})`;
      }
      case "link": {
        const text = (node.children ?? []).map((child) => this.inline(child)).join("");
        const url = node.url ?? "";
        // An autolink's text is its target already; a footnote-style anchor (#x) says nothing alone.
        const bare = !this.style.linkTargets || !url || url === text || url === `mailto:${text}` || url.startsWith("#");
        return bare ? text : `${text} (${url})`;
      }
      default:
        return (node.children ?? []).map((child) => this.inline(child)).join("");
    }
  }

  private html(value: string): string {
    return this.style.keepHtml ? value : value.replace(/<[^>]*>/g, "").trim();
  }
}

function indent(text: string, pad: string): string {
  return text
    .split("\n")
    .map((l) => (l ? pad + l : l))
    .join("\n");
}
