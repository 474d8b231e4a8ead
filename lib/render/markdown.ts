import rehypeStringify from "rehype-stringify";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { NOTE_ID } from "@/lib/notes/schema";
import { readSide } from "@/lib/read-model/read-side";
import { markdownIsSafe } from "@/lib/notes/section-shape";
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

/**
 * Rendering is pure and costs from a few milliseconds to about a second a section (highlighting is
 * bounded, ./code-tokens.ts); pages and the feed render the same sections on every request, so
 * results are kept by what they depend on, whatever the section's length (a long section is the
 * one worth keeping: one over 20,000 characters used to render again for every request). Bounded by
 * entries and by characters kept; least recently used goes first.
 */
const CACHE_ENTRIES = 2000;
const CACHE_CHARS = 48_000_000;
export type SectionCache = { entries: Map<string, string>; chars: number; renders: number };
const cache = (): SectionCache => (readSide().sectionHtml ??= { entries: new Map(), chars: 0, renders: 0 });
// Footnotes, diagrams, and links to "#…" (inline or by definition): what the id prefix reaches.
const PREFIXED = /\[\^|mermaid|\]\(\s*<?#|\]:\s*<?#/i;
const ANY_ID = new RegExp(NOTE_ID.source.slice(1, -1), "g");

/** How many sections this process has rendered (not answered from the cache): a test counts them. */
export const sectionRenders = () => cache().renders;

/** What a section's HTML depends on: the source, the id prefix, which of its mentions are linkable, its images' sizes. */
export function sectionKey(markdown: string, options: RenderOptions = {}): string {
  const mentions = markdown.match(ANY_ID) ?? [];
  const linked = options.linkable ? mentions.filter((id) => options.linkable?.has(id)).join(",") : "*";
  const sized = options.images ? [...options.images].map(([p, s]) => `${p}=${s.width}x${s.height}`).join(",") : "";
  // The id prefix reaches the HTML only through footnotes, diagrams and "#…" links: the note
  // page and the feed, which prefix differently, share every other section.
  const prefix = PREFIXED.test(markdown) ? (options.idPrefix ?? "") : "*";
  return `${prefix}\0${linked}\0${sized}\0${markdown}`;
}

/** The kept HTML of a section's key, or undefined. */
export function keptSection(key: string): string | undefined {
  const c = cache();
  const hit = c.entries.get(key);
  if (hit !== undefined) {
    c.entries.delete(key);
    c.entries.set(key, hit);
  }
  return hit;
}

/** Keep a section's HTML under its key. */
export function keepSection(key: string, html: string): void {
  const c = cache();
  const old = c.entries.get(key);
  if (old !== undefined) c.chars -= key.length + old.length;
  c.entries.set(key, html);
  c.chars += key.length + html.length;
  while (c.entries.size > CACHE_ENTRIES || (c.chars > CACHE_CHARS && c.entries.size > 1)) {
    const [oldest, value] = c.entries.entries().next().value as [string, string];
    c.entries.delete(oldest);
    c.chars -= oldest.length + value.length;
  }
}

export function renderMarkdown(markdown: string, options: RenderOptions = {}): string {
  const key = sectionKey(markdown, options);
  const hit = keptSection(key);
  if (hit !== undefined) return hit;
  const html = renderSectionNow(markdown, options);
  keepSection(key, html);
  return html;
}

/**
 * One section rendered, never kept and never thrown: text whose shape the parser cannot be trusted
 * with (lib/notes/section-shape.ts: nesting past 32 levels, a paragraph of thousands of marks) is
 * shown as the plain text it is, with a notice; so is a section the pipeline fails on.
 */
export function renderSectionNow(markdown: string, options: RenderOptions = {}): string {
  cache().renders++;
  if (!markdownIsSafe(markdown)) return plainSection(markdown, "its Markdown nests too deep or holds too many marks in one paragraph to be laid out");
  try {
    return render(markdown, options);
  } catch (e) {
    console.error(`a section (${options.idPrefix ?? "no id"}) could not be rendered; shown as plain text`, e);
    return plainSection(markdown, "it could not be laid out");
  }
}

/** The section as escaped text in a <pre>, after a notice saying why. */
export function plainSection(markdown: string, why: string): string {
  const escaped = markdown.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<p class="render-notice">This section is shown as plain text: ${why}.</p>\n<pre class="plain-section" tabindex="0">${escaped}</pre>`;
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
