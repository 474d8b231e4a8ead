import type { MDEditorProps } from "@uiw/react-md-editor/nohighlight";
import { codeBlocks } from "./code-tokens";
import { mermaidBlocks } from "@/lib/rules/diagrams";
import { drawWith, type DiagramResult, type DrawDiagram, type MermaidToSvg } from "./diagram-svg";
import { SECTION_REMARK_REHYPE, sectionRehypePlugins, sectionRemarkPlugins } from "./pipeline";
import { highlightInPreview, onPreviewGrammar, previewLabel } from "./preview-code";

/**
 * What the studio's Markdown editor previews with: the public pages' pipeline (lib/render/markdown.ts)
 * in place of the preview library's own. Its own plugins trust the source (rehype-attr sets
 * attributes from comments, raw HTML is an option) and its links keep any scheme, so a `data:` or
 * `vbscript:` link was a live anchor in the preview that the published page never shows.
 *
 * Mermaid blocks are drawn by the same renderer and checks as on the server (./diagram-svg.ts), a
 * refused block shows its source and reason the same way. The renderer is a separate chunk (about
 * 480 KB compressed, 1.6 MB of script to compile), loaded when a preview first shows a Mermaid block,
 * not when a field opens; until it is there a block shows its source, marked as pending. Code
 * is highlighted as on the page, each grammar loaded as its own chunk when a block in its language
 * is first previewed (./preview-code.ts); until it arrives the block shows plain under its label.
 * Either kind of chunk arriving is one event, `onPreviewChunk`, on which a field renders again.
 */
export function previewOptions(fieldId: string): NonNullable<MDEditorProps["previewOptions"]> {
  const remark = sectionRemarkPlugins();
  const rehype = sectionRehypePlugins(`${fieldId}-preview-`, { draw: drawInPreview, code: [rehypePreviewCode] });
  return {
    // Replaces both lists outright (headings, anchors, copy buttons, attributes from comments).
    pluginsFilter: (type) => (type === "remark" ? remark : rehype),
    remarkRehypeOptions: SECTION_REMARK_REHYPE,
    // Raw HTML stays text (the remark step turns it into text before it could be parsed).
    skipHtml: true,
  };
}

let toSvg: MermaidToSvg | null = null;
let loading: Promise<void> | null = null;
const drawn = new Map<string, DiagramResult>();
const DRAWN_ENTRIES = 100;

/** Loads the diagram renderer once; the preview draws from the next render on. */
export function loadPreviewDiagrams(): Promise<void> {
  loading ??= import("beautiful-mermaid").then((m) => {
    toSvg = m.renderMermaidSVG;
    chunkArrived();
  });
  return loading;
}

/** Whether Mermaid blocks are drawn yet (until then they show as pending). */
export const previewDiagramsReady = () => toSvg !== null;

/**
 * Whether a preview of `markdown` shows a diagram still waiting for the renderer (aria-busy): its
 * Mermaid blocks as the rules find them (the parser the pages render with), parsed only when the
 * word is there at all, since a field asks on every keystroke.
 */
export const diagramsPending = (markdown: string) => toSvg === null && markdown.includes("mermaid") && mermaidBlocks(markdown).length > 0;

// One "a preview chunk arrived" signal for the diagram renderer and every code grammar: a preview
// rendered before a chunk came shows a pending diagram or a plain block, and is drawn again when it
// comes, without waiting for a keystroke. The count is the snapshot a field renders from
// (useSyncExternalStore), so an arrival between its render and its subscription is not missed.
let arrivals = 0;
const listeners = new Set<() => void>();

function chunkArrived() {
  arrivals += 1;
  for (const listener of listeners) listener();
}
onPreviewGrammar(chunkArrived);

/** Calls `listener` each time the diagram renderer or a code grammar arrives; returns the unsubscribe. */
export function onPreviewChunk(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** How many preview chunks have arrived so far: changes exactly when `onPreviewChunk` fires. */
export const previewChunkCount = () => arrivals;

const drawInPreview: DrawDiagram = (source) => {
  if (!toSvg) {
    // The first diagram a preview shows asks for the renderer; it draws when the chunk arrives.
    if (typeof window !== "undefined") void loadPreviewDiagrams();
    return null;
  }
  // The preview renders on every keystroke: unchanged blocks are not laid out again.
  let result = drawn.get(source);
  if (!result) {
    result = drawWith(toSvg, source);
    drawn.set(source, result);
    if (drawn.size > DRAWN_ENTRIES) drawn.delete(drawn.keys().next().value as string);
  }
  return result;
};

/** Fenced code in the preview: the page's spans and labels, from the grammars loaded so far. */
function rehypePreviewCode() {
  return codeBlocks(highlightInPreview, previewLabel);
}
