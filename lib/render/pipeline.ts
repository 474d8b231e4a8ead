import type { Element, Root as HastRoot } from "hast";
import type { Heading, Html, Nodes, Root } from "mdast";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import type { PluggableList, Processor } from "unified";
import { markdownIsSafe } from "@/lib/notes/section-shape";
import { rehypeDiagrams, type DrawDiagram } from "./diagram-svg";
import { rehypeNoteImages, type ImageSizes } from "./images";
import { remarkNoteMentions } from "./mentions";

/**
 * The section pipeline's rules, shared by the public pages (./markdown.ts, on the server) and the
 * studio's live preview (./preview.ts, in the browser). Nothing here may import a server-only or
 * heavy module: the renderers (diagrams, highlighting) are passed in by the caller.
 */

/**
 * The steps between parsing and HTML, as plugin lists, so the studio's live preview (which parses
 * and turns Markdown into HTML with react-markdown) runs exactly the public pages' rules.
 */
export function sectionRemarkPlugins(options: { linkable?: ReadonlySet<string> } = {}): PluggableList {
  return [remarkShapeGuard, remarkGfm, remarkHtmlAsText, remarkSectionHeadings, [remarkNoteMentions, { linkable: options.linkable }]];
}

/** Ids are prefixed once, by rehype-sanitize, not also by remark-rehype. */
export const SECTION_REMARK_REHYPE = { clobberPrefix: "" } as const;

/** What the caller renders beyond text: Mermaid diagrams, highlighted code (server-side modules). */
export type SectionRenderers = { draw?: DrawDiagram; code?: PluggableList; images?: ImageSizes };

/**
 * Sanitising (GitHub's schema: no script, handler, style or javascript:/data:/vbscript: URL), then
 * diagrams and code, which build their markup after sanitizing from checked parts (SVG and token
 * classes would not survive it), then link attributes.
 */
export function sectionRehypePlugins(prefix: string, renderers: SectionRenderers = {}): PluggableList {
  return [
    [rehypeSanitize, { ...defaultSchema, clobberPrefix: prefix }],
    ...(renderers.draw ? [[rehypeDiagrams, { draw: renderers.draw, prefix }] as PluggableList[number]] : []),
    ...(renderers.code ?? []),
    // The note's own images at their /assets/ URL, sized when the caller knows their sizes (./images.ts).
    [rehypeNoteImages, { sizes: renderers.images }],
    [rehypeLinks, { prefix }],
  ];
}

/**
 * Text of a shape the parser cannot be trusted with (lib/notes/section-shape.ts: nesting past 32
 * levels, piles of marks, thousands of blocks) is never parsed: it becomes one plain code block. The
 * server checks before it renders (./markdown.ts, with a notice); this keeps the studio's preview,
 * which parses inside react-markdown, from overflowing the browser's stack while an author types.
 */
function remarkShapeGuard(this: Processor) {
  const parse = this.parser;
  if (!parse) return;
  this.parser = (document, file) => (markdownIsSafe(document) ? parse(document, file) : { type: "root", children: [{ type: "code", value: document }] });
}

/** `<b>`, `Vec<T>` and `<script>` alike read as typed: the source is shown, nothing is interpreted. */
function remarkHtmlAsText() {
  return (tree: Root) => {
    walk(tree, (node) => {
      if (node.type === "html") Object.assign(node as Html, { type: "text" });
    });
  };
}

/** The page's own headings are h1 (title) and h2 (sections): headings inside a section start at h3. */
function remarkSectionHeadings() {
  return (tree: Root) => {
    walk(tree, (node) => {
      if (node.type === "heading") (node as Heading).depth = Math.max(3, node.depth) as Heading["depth"];
    });
  };
}

/**
 * Links after sanitizing: in-page links (footnotes) point at the prefixed ids sanitize gave their
 * targets; links that leave the archive say so to the browser: no referrer, no endorsement, no opener.
 */
function rehypeLinks({ prefix }: { prefix: string }) {
  return (tree: HastRoot) => {
    const visit = (node: HastRoot | Element) => {
      for (const child of node.children) {
        if (child.type !== "element") continue;
        const href = child.properties.href;
        if (child.tagName === "a" && typeof href === "string") {
          if (href.startsWith("#")) child.properties.href = `#${prefix}${href.slice(1)}`;
          else if (/^[a-z][a-z0-9+.-]*:/i.test(href)) child.properties.rel = ["nofollow", "noopener", "noreferrer"];
        }
        visit(child);
      }
    };
    visit(tree);
  };
}

function walk(node: Nodes, fn: (node: Nodes) => void) {
  fn(node);
  if ("children" in node) for (const child of node.children) walk(child, fn);
}
