import { createHash } from "node:crypto";
import { isMainThread, Worker } from "node:worker_threads";
import { renderMermaidSVG } from "beautiful-mermaid";
import { drawWith, refusedBeforeDrawing, type DiagramResult } from "./diagram-svg";
import { DiagramWorker } from "./diagram-worker-client";
import { readSide } from "@/lib/read-model/read-side";

/**
 * Mermaid source to a checked SVG tree on the server, with beautiful-mermaid (no DOM, no browser;
 * docs/decisions/mermaid-on-the-server.md). Its layout is synchronous and grows with the graph, so
 * in the server it runs in a worker thread with a time limit (./diagram-worker.ts,
 * docs/decisions/diagram-limits-and-worker.md): a section's diagrams are drawn there first
 * (`drawDiagrams`, which ./section.ts awaits), then the section renders synchronously from those
 * drawings (`withDrawings`). A source beyond the size limits (lib/rules/diagrams.ts) is refused
 * before any layout, in every thread. Results, drawings and refusals alike, are kept by the SHA-256
 * of their source, least recently used going first, shared by every bundle of the server.
 *
 * Outside the server (tests, scripts) there is no worker: a source is laid out in the calling
 * thread, within the size limits, as it is when the worker cannot start.
 */

/** How long one diagram's layout may take in the worker before it is stopped and the source shown instead. */
export const DIAGRAM_TIME_LIMIT_MS = 10_000;

const CACHE_ENTRIES = 500;

export type DiagramState = {
  worker: DiagramWorker | null | undefined;
  cache: Map<string, DiagramResult>;
  /** Layouts under way in the worker, by key: a second page asking for the same source waits for the same one. */
  drawing: Map<string, Promise<DiagramResult>>;
  warned: boolean;
};
// In the read side's state: Next loads this module once per bundle layer, and they must share one worker and one cache.
const state = (): DiagramState => (readSide().diagrams ??= { worker: undefined, cache: new Map(), drawing: new Map(), warned: false });

// Only Next's server bundles the worker's entry (Turbopack compiles the file named here into a chunk).
const bundled = () => isMainThread && process.env.NEXT_RUNTIME === "nodejs";

function diagramWorker(): DiagramWorker | null {
  const s = state();
  if (s.worker === undefined) {
    try {
      s.worker = bundled() ? new DiagramWorker(() => new Worker(new URL("./diagram-worker.ts", import.meta.url)), DIAGRAM_TIME_LIMIT_MS) : null;
    } catch (e) {
      console.error("the diagram worker did not start; drawing diagrams in the request thread", e);
      s.worker = null;
    }
  }
  return s.worker && !s.worker.failed ? s.worker : null;
}

/** Draw through a worker started by `spawn` from now on (a test of the worker); the cache starts empty. */
export function startDiagramWorker(spawn: () => Worker, timeLimitMs = DIAGRAM_TIME_LIMIT_MS): DiagramWorker {
  const s = state();
  void s.worker?.stop();
  s.cache.clear();
  return (s.worker = new DiagramWorker(spawn, timeLimitMs));
}

/** Stop the worker a test started; diagrams are drawn in this thread again, from an empty cache. */
export async function stopDiagramWorker(): Promise<void> {
  const s = state();
  const worker = s.worker;
  s.worker = null;
  s.cache.clear();
  await worker?.stop();
}

const keyOf = (source: string) => createHash("sha256").update(source).digest("hex");

function cached(key: string): DiagramResult | undefined {
  const { cache } = state();
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
  }
  return hit;
}

function remember(key: string, result: DiagramResult): DiagramResult {
  const { cache } = state();
  cache.set(key, result);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return result;
}

/**
 * The drawings of these sources, laid out in the worker (in the server) and kept. A source the
 * limits refuse is answered at once; one whose layout outlives the time limit is answered with
 * that refusal (and kept: drawing it again would cost the same). Never rejects.
 */
export async function drawDiagrams(sources: readonly string[]): Promise<ReadonlyMap<string, DiagramResult>> {
  const unique = [...new Set(sources)];
  const results = await Promise.all(unique.map((source) => drawOne(source)));
  return new Map(unique.map((source, i) => [source, results[i]!]));
}

function drawOne(source: string): DiagramResult | Promise<DiagramResult> {
  const key = keyOf(source);
  const hit = cached(key);
  if (hit) return hit;
  const refused = refusedBeforeDrawing(source);
  if (refused) return remember(key, refused);
  const worker = diagramWorker();
  if (!worker) return drawDiagram(source);
  const s = state();
  let pending = s.drawing.get(key);
  if (!pending) {
    pending = worker
      .draw(source)
      .then(
        (result) => remember(key, result),
        (e: Error) => {
          console.error("the diagram worker failed; drawing diagrams in the request thread", e);
          return drawDiagram(source);
        },
      )
      .finally(() => s.drawing.delete(key));
    s.drawing.set(key, pending);
  }
  return pending;
}

// The drawings a synchronous render in progress was handed (withDrawings): looked up first.
let prepared: ReadonlyMap<string, DiagramResult> | null = null;

/** Runs a synchronous render that draws with `drawings` (from drawDiagrams) before anything else. */
export function withDrawings<T>(drawings: ReadonlyMap<string, DiagramResult>, render: () => T): T {
  const outer = prepared;
  prepared = drawings;
  try {
    return render();
  } finally {
    prepared = outer;
  }
}

/**
 * One source's drawing, synchronously, as the section pipeline asks for it: from the drawings
 * handed to withDrawings, else the cache, else laid out here, within the size limits (a test, a
 * script, or the server when its worker cannot start).
 */
export function drawDiagram(source: string): DiagramResult {
  const ready = prepared?.get(source);
  if (ready) return ready;
  const key = keyOf(source);
  const hit = cached(key);
  if (hit) return hit;
  const s = state();
  if (!s.warned && diagramWorker() && !refusedBeforeDrawing(source)) {
    s.warned = true;
    console.warn("a Mermaid diagram was laid out in the request thread: render sections with renderSection (lib/render/sections.ts)");
  }
  return remember(key, drawWith(renderMermaidSVG, source));
}
