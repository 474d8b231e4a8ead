import { mermaidBlocks } from "@/lib/rules/diagrams";
import { drawDiagrams, withDrawings } from "./diagrams";
import { renderMarkdown, type RenderOptions } from "./markdown";

/**
 * A note section as HTML, for the server's pages and feed: its ```mermaid blocks are drawn first,
 * off the request thread (./diagrams.ts: a worker with a time limit), then the section renders as
 * renderMarkdown does, from those drawings. A diagram refused for its size, or whose layout ran
 * past the time limit, shows its source with the reason; the page is never held by a layout.
 */
export async function renderSection(markdown: string, options: RenderOptions = {}): Promise<string> {
  const sources = diagramSources(markdown);
  if (sources.length === 0) return renderMarkdown(markdown, options);
  const drawings = await drawDiagrams(sources);
  return withDrawings(drawings, () => renderMarkdown(markdown, options));
}

// Finding the blocks parses the section; pages and the feed render the same sections again and again.
const SOURCES_KEPT = 500;
const sourcesOf = new Map<string, string[]>();

function diagramSources(markdown: string): string[] {
  // No fence, no diagram: answered without the parser, and not kept.
  if (!markdown.includes("```") && !markdown.includes("~~~")) return [];
  let sources = sourcesOf.get(markdown);
  if (!sources) {
    sources = mermaidBlocks(markdown).map((b) => b.source);
    sourcesOf.set(markdown, sources);
    if (sourcesOf.size > SOURCES_KEPT) sourcesOf.delete(sourcesOf.keys().next().value as string);
  }
  return sources;
}
