import { createHash } from "node:crypto";
import { renderMermaidSVG } from "beautiful-mermaid";
import { drawWith, type DiagramResult } from "./diagram-svg";

/**
 * Mermaid source to a checked SVG tree on the server, with beautiful-mermaid: synchronous, no DOM,
 * no browser (docs/decisions/mermaid-on-the-server.md). A drawing costs a few to a hundred
 * milliseconds and pages render the same blocks again, so results (drawings and refusals alike) are
 * kept by the SHA-256 of their source, least recently used going first.
 */

const CACHE_ENTRIES = 500;
const cache = new Map<string, DiagramResult>();

export function drawDiagram(source: string): DiagramResult {
  const key = createHash("sha256").update(source).digest("hex");
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const result = drawWith(renderMermaidSVG, source);
  cache.set(key, result);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return result;
}
