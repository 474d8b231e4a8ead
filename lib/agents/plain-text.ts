import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { markdownIsSafe, withoutLineSeparators } from "@/lib/notes/section-shape";

/**
 * Markdown as plain prose for a language model: paragraphs, list items and code keep their shape,
 * while emphasis marks, backticks and link syntax go. A link keeps its target in parentheses,
 * because the target is information and the brackets are not. A heading keeps its hashes (always
 * ### or deeper inside a section): the .txt formats name the note's own sections on bare lines, and
 * a bare "Results" line inside Evidence would read as a new section (issue 14, finding 9).
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
type ImageMode = "alt" | "none" | ImageText;
// Set for the length of one call; the walk is synchronous, so no other call sees it.
let images: ImageMode = "alt";

function withImages<T>(mode: ImageMode, fn: () => T): T {
  images = mode;
  try {
    return fn();
  } finally {
    images = "alt";
  }
}

export function markdownToText(markdown: string, image?: ImageText): string {
  // A Unicode line separator would start a line for some readers only (lib/notes/section-shape.ts).
  return withImages(image ?? "alt", () => toText(withoutLineSeparators(markdown), true));
}

/** One line of plain text: for capsule fields and index entries, where a line break is noise (and so is a heading's mark). */
export function markdownToLine(markdown: string): string {
  return withImages("none", () => toText(withoutLineSeparators(markdown), false))
    .replace(/\s+/g, " ")
    .trim();
}

function toText(markdown: string, headingMarks: boolean): string {
  if (!markdown.trim()) return "";
  // Text the parser cannot be trusted with is given as written (lib/notes/section-shape.ts): the page shows it so too.
  if (!markdownIsSafe(markdown)) return markdown.trim();
  const block = (node: MdNode): string =>
    node.type === "heading" && headingMarks ? `${"#".repeat(node.depth ?? 3)} ${inline(node).trim()}` : blockOf(node, block);
  try {
    return blocks(parser.parse(markdown) as MdNode, block)
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  } catch {
    // Never one section taking down a format that lists many notes (llms-full.txt): given as written.
    return markdown.trim();
  }
}

type Block = (node: MdNode) => string;

function blocks(node: MdNode, block: Block): string {
  return (node.children ?? [])
    .map(block)
    .filter((b) => b.trim() !== "")
    .join("\n\n");
}

function blockOf(node: MdNode, block: Block): string {
  switch (node.type) {
    case "paragraph":
    case "heading":
      return inline(node).trim();
    case "list":
      return list(node, block);
    case "code":
      return indent(node.value ?? "", "    ");
    case "blockquote":
      return indent(blocks(node, block), "  ");
    case "table":
      return (node.children ?? []).map((row) => (row.children ?? []).map((cell) => inline(cell).trim()).join(" | ")).join("\n");
    case "html":
      return stripTags(node.value ?? "");
    case "thematicBreak":
    case "definition":
      return "";
    default:
      return node.children ? blocks(node, block) : (node.value ?? "");
  }
}

function list(node: MdNode, block: Block): string {
  let n = node.start ?? 1;
  return (node.children ?? [])
    .map((item) => {
      const marker = node.ordered ? `${n++}. ` : "- ";
      // Items of a tight list are one block each; a loose item's paragraphs stay apart.
      const body = (item.children ?? [])
        .map(block)
        .filter((b) => b.trim() !== "")
        .join("\n");
      return marker + indent(body, " ".repeat(marker.length)).slice(marker.length);
    })
    .join("\n");
}

function inline(node: MdNode): string {
  switch (node.type) {
    case "text":
    case "inlineCode":
      return node.value ?? "";
    case "break":
      return "\n";
    case "html":
      return stripTags(node.value ?? "");
    case "image":
      if (images === "none") return "";
      return images === "alt" ? (node.alt ?? "") : `[Image: ${node.alt ?? ""}] (${images(node.url ?? "")})`;
    case "link": {
      const text = (node.children ?? []).map(inline).join("");
      const url = node.url ?? "";
      // An autolink's text is its target already; a footnote-style anchor (#x) says nothing alone.
      return !url || url === text || url === `mailto:${text}` || url.startsWith("#") ? text : `${text} (${url})`;
    }
    default:
      return (node.children ?? []).map(inline).join("");
  }
}

function indent(text: string, pad: string): string {
  return text
    .split("\n")
    .map((l) => (l ? pad + l : l))
    .join("\n");
}

function stripTags(html: string): string {
  return html.replace(/<[^>]*>/g, "").trim();
}
