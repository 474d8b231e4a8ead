import type { Element, Root as HastRoot } from "hast";
import type { Heading, Html, Nodes, Root } from "mdast";
import rehypeSanitize, { defaultSchema } from "rehype-sanitize";
import rehypeStringify from "rehype-stringify";
import remarkGfm from "remark-gfm";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified, type PluggableList } from "unified";
import { NOTE_ID } from "@/lib/notes/schema";
import { remarkNoteMentions } from "./mentions";

/**
 * A note section's Markdown (GFM: tables, code, lists, task lists, footnotes) as HTML that is safe
 * to put in a page. Raw HTML in the source is shown as the text it is, never interpreted, and the
 * result passes through rehype-sanitize's GitHub schema, so no script, event handler, style or
 * `javascript:`/`data:` URL survives from any field.
 */

export type RenderOptions = {
  /** Note IDs to link when mentioned; without it every well-formed ID is linked. */
  linkable?: ReadonlySet<string>;
  /** Prefix for generated ids (footnotes), unique per section so several sections share a page. */
  idPrefix?: string;
};

// Rendering is pure and costs a few milliseconds a section; pages and the feed render the same
// sections on every request, so recent results are kept (bounded; least recently used goes first).
const CACHE_ENTRIES = 2000;
const CACHE_MAX_SOURCE = 20_000;
const cache = new Map<string, string>();
const ANY_ID = new RegExp(NOTE_ID.source.slice(1, -1), "g");

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  if (markdown.length > CACHE_MAX_SOURCE) return render(markdown, options);
  // What the output depends on: the source, the id prefix and which of its mentions are linkable.
  const mentions = markdown.match(ANY_ID) ?? [];
  const linked = options.linkable ? mentions.filter((id) => options.linkable?.has(id)).join(",") : "*";
  const key = `${options.idPrefix ?? ""}\0${linked}\0${markdown}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const html = render(markdown, options);
  cache.set(key, html);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return html;
}

function render(markdown: string, options: RenderOptions): string {
  const prefix = `${options.idPrefix ?? "md"}-`;
  const file = unified()
    .use(remarkParse)
    .use(sectionRemarkPlugins(options))
    .use(remarkRehype, SECTION_REMARK_REHYPE)
    .use(sectionRehypePlugins(prefix))
    .use(rehypeStringify)
    .processSync(markdown);
  return String(file);
}

/**
 * The steps between parsing and HTML, as plugin lists, so the studio's live preview (which parses
 * and turns Markdown into HTML with react-markdown) runs exactly the public pages' rules.
 */
export function sectionRemarkPlugins(options: Pick<RenderOptions, "linkable"> = {}): PluggableList {
  return [remarkGfm, remarkHtmlAsText, remarkSectionHeadings, [remarkNoteMentions, { linkable: options.linkable }]];
}

/** Ids are prefixed once, by rehype-sanitize, not also by remark-rehype. */
export const SECTION_REMARK_REHYPE = { clobberPrefix: "" } as const;

/** Sanitising (GitHub's schema: no script, handler, style or javascript:/data:/vbscript: URL), then link attributes. */
export function sectionRehypePlugins(prefix: string): PluggableList {
  return [
    [rehypeSanitize, { ...defaultSchema, clobberPrefix: prefix }],
    [rehypeLinks, { prefix }],
  ];
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
