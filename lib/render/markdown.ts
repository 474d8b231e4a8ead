import rehypeStringify from "rehype-stringify";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { NOTE_ID } from "@/lib/notes/schema";
import { rehypeCode } from "./code";
import { drawDiagram } from "./diagrams";
import type { ImageSizes } from "./images";
import { SECTION_REMARK_REHYPE, sectionRehypePlugins, sectionRemarkPlugins } from "./pipeline";

export { SECTION_REMARK_REHYPE, sectionRehypePlugins, sectionRemarkPlugins } from "./pipeline";

/**
 * A note section's Markdown (GFM: tables, code, lists, task lists, footnotes) as HTML that is safe
 * to put in a page. Raw HTML in the source is shown as the text it is, never interpreted, and the
 * result passes through rehype-sanitize's GitHub schema, so no script, event handler, style or
 * `javascript:`/`data:` URL survives from any field. After sanitizing, ```mermaid blocks become inline
 * SVG diagrams (./diagrams.ts) and other fenced code is highlighted (./code.ts), both built from
 * checked parts, with no client script.
 */

export type RenderOptions = {
  /** Note IDs to link when mentioned; without it every well-formed ID is linked. */
  linkable?: ReadonlySet<string>;
  /** Prefix for generated ids (footnotes), unique per section so several sections share a page. */
  idPrefix?: string;
  /** The intrinsic sizes of the section's images (lib/assets/sizes.ts), set as width and height on each <img>. */
  images?: ImageSizes;
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
  const sized = options.images ? [...options.images].map(([p, s]) => `${p}=${s.width}x${s.height}`).join(",") : "";
  const key = `${options.idPrefix ?? ""}\0${linked}\0${sized}\0${markdown}`;
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
    .use(sectionRehypePlugins(prefix, { draw: drawDiagram, code: [rehypeCode], images: options.images }))
    .use(rehypeStringify)
    .processSync(markdown);
  return String(file);
}
