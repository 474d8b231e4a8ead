import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { markdownIsSafe } from "@/lib/notes/section-shape";

/**
 * Markdown to the words a reader sees: no markup, no link targets, blocks separated by a space.
 * Search indexes this text and cuts passages from it, so a passage never shows half a `[link](…)`.
 */

type MdNode = { type: string; value?: string; alt?: string | null; children?: MdNode[] };

const parser = unified().use(remarkParse).use(remarkGfm);

// Blocks that end a sentence-like unit: their text is separated from the next one by a space.
const BLOCK = new Set(["paragraph", "heading", "listItem", "tableCell", "code", "blockquote", "thematicBreak"]);
// Containers of blocks: raw HTML directly inside one is a block of its own, not inline markup.
const FLOW = new Set(["root", "listItem", "blockquote", "footnoteDefinition"]);

export function markdownToPlainText(markdown: string): string {
  if (!markdown.trim()) return "";
  // Text the parser cannot be trusted with is shown as written (lib/notes/section-shape.ts).
  if (!markdownIsSafe(markdown)) return markdown.replace(/\s+/g, " ").trim();
  const parts: string[] = [];
  const walk = (node: MdNode, parent: string) => {
    // Raw HTML counts too: the page shows it as the text it is (see markdown.ts).
    if (typeof node.value === "string") parts.push(node.value);
    else if (node.type === "image" && node.alt) parts.push(node.alt);
    else if (node.type === "break") parts.push(" ");
    for (const child of node.children ?? []) walk(child, node.type);
    if (BLOCK.has(node.type) || (node.type === "html" && FLOW.has(parent))) parts.push(" ");
  };
  try {
    walk(parser.parse(markdown) as MdNode, "");
  } catch {
    // A section the parser fails on is searched as written.
    return markdown.replace(/\s+/g, " ").trim();
  }
  return parts.join("").replace(/\s+/g, " ").trim();
}
