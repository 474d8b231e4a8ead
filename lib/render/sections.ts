import { isMainThread, Worker } from "node:worker_threads";
import { keepSection, keptSection, plainSection, renderMarkdown, sectionKey, type RenderOptions } from "./markdown";
import { mermaidBlocks } from "@/lib/rules/diagrams";
import type { DiagramResult } from "./diagram-svg";
import { drawDiagrams, withDrawings } from "./diagrams";
import type { FromSectionWorker, ToSectionWorker } from "./section-worker-protocol";
import { readSide } from "@/lib/read-model/read-side";

/**
 * Note sections as HTML for the server's pages and feed, rendered off the request thread. A kept
 * section (./markdown.ts keeps them by content) is answered at once; otherwise, in Next's server,
 * one worker thread (./section-worker.ts) renders it, one section at a time, and the result is kept.
 * A section that takes longer than RENDER_TIME_LIMIT_MS (the worker is then stopped and a new one
 * started) is answered as plain text with a notice, and kept so: its next reader does not wait
 * again. A worker that fails otherwise leaves rendering to this thread, as in tests and scripts
 * (`FIELD_NOTES_RENDER_WORKER=off` does the same in the server). Readers of the same section share
 * one render. See docs/decisions/sections-render-off-thread.md.
 */

export const RENDER_TIME_LIMIT_MS = 15_000;

type Drawings = ReadonlyMap<string, DiagramResult>;
type Job = { id: number; markdown: string; options: RenderOptions; drawings: Drawings | undefined; resolve: (html: string) => void };
export type SectionState = {
  pool: SectionWorker | null | undefined;
  inFlight: Map<string, Promise<string>>;
  /** Each section's ```mermaid sources, by its Markdown (see `diagramSources`). */
  sources: Map<string, string[]>;
};
const state = (): SectionState => (readSide().sections ??= { pool: undefined, inFlight: new Map(), sources: new Map() });

// Only Next's server bundles the worker's entry (as lib/search/index.ts does for its worker).
const bundled = () => isMainThread && process.env.NEXT_RUNTIME === "nodejs" && process.env.FIELD_NOTES_RENDER_WORKER !== "off";

function sectionWorker(): SectionWorker | null {
  const s = state();
  if (s.pool === undefined) {
    try {
      s.pool = bundled() ? new SectionWorker(() => new Worker(new URL("./section-worker.ts", import.meta.url))) : null;
    } catch (e) {
      console.error("the section worker did not start; rendering in the request thread", e);
      s.pool = null;
    }
  }
  return s.pool && !s.pool.failed ? s.pool : null;
}

/** Render sections through a worker started by `spawn` (a test; stop the last one first), or in this thread (null). */
export function startSectionWorker(spawn: (() => Worker) | null, limitMs = RENDER_TIME_LIMIT_MS): SectionWorker | null {
  state().inFlight.clear();
  return (state().pool = spawn ? new SectionWorker(spawn, limitMs) : null);
}

/**
 * A section's HTML (see renderMarkdown for what it depends on), rendered off this thread when it can
 * be. Its ```mermaid blocks are drawn first, each in the diagram worker with its own time limit
 * (./diagrams.ts), and handed to the render: a layout that runs long shows that diagram's source and
 * reason, not the whole section as plain text.
 */
export async function renderSection(markdown: string, options: RenderOptions = {}): Promise<string> {
  const key = sectionKey(markdown, options);
  const hit = keptSection(key);
  if (hit !== undefined) return hit;
  const sources = diagramSources(markdown);
  const drawings = sources.length ? await drawDiagrams(sources) : undefined;
  const here = () => (drawings ? withDrawings(drawings, () => renderMarkdown(markdown, options)) : renderMarkdown(markdown, options));
  const worker = sectionWorker();
  if (!worker) return here();
  const s = state();
  let pending = s.inFlight.get(key);
  if (!pending) {
    // Only the mentions this section makes travel, not every linkable id of the archive.
    const linkable = options.linkable ? new Set((markdown.match(/[A-Z][A-Z0-9]*-\d{3,}/g) ?? []).filter((id) => options.linkable?.has(id))) : undefined;
    pending = worker
      .render(markdown, { ...options, linkable }, drawings)
      .catch(() => here())
      .then((html) => {
        keepSection(key, html);
        return html;
      })
      .finally(() => s.inFlight.delete(key));
    s.inFlight.set(key, pending);
  }
  return pending;
}

// Finding the blocks parses the section; pages and the feed render the same sections again and again.
const SOURCES_KEPT = 500;

function diagramSources(markdown: string): string[] {
  // No fence, no diagram: answered without the parser, and not kept.
  if (!markdown.includes("```") && !markdown.includes("~~~")) return [];
  const sourcesOf = state().sources;
  let sources = sourcesOf.get(markdown);
  if (!sources) {
    sources = mermaidBlocks(markdown).map((b) => b.source);
    sourcesOf.set(markdown, sources);
    if (sourcesOf.size > SOURCES_KEPT) sourcesOf.delete(sourcesOf.keys().next().value as string);
  }
  return sources;
}

/** One worker, one section at a time, each given RENDER_TIME_LIMIT_MS; a worker that overruns is replaced. */
export class SectionWorker {
  failed: Error | null = null;
  private worker: Worker;
  private next = 1;
  private readonly queue: Job[] = [];
  private current: Job | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly spawn: () => Worker,
    private readonly limitMs = RENDER_TIME_LIMIT_MS,
  ) {
    this.worker = this.start();
  }

  render(markdown: string, options: RenderOptions, drawings?: Drawings): Promise<string> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve) => {
      this.queue.push({ id: this.next++, markdown, options, drawings, resolve });
      this.pump();
    });
  }

  /** Stop the worker (a test's end). */
  stop(): Promise<number> {
    this.fail(new Error("the section worker was stopped"));
    return this.worker.terminate();
  }

  private start(): Worker {
    const worker = this.spawn();
    // An idle worker never keeps the process alive (a script, a test, a server shutting down).
    worker.unref();
    worker.on("message", ({ id, html }: FromSectionWorker) => {
      if (this.current?.id !== id) return;
      this.finish(html);
    });
    worker.on("error", (e) => {
      if (worker === this.worker) this.fail(e);
    });
    worker.on("exit", (code) => {
      if (worker === this.worker) this.fail(new Error(`the section worker exited with code ${code}`));
    });
    return worker;
  }

  private pump(): void {
    if (this.current || this.failed) return;
    const job = this.queue.shift();
    if (!job) return;
    this.current = job;
    this.timer = setTimeout(() => this.overrun(), this.limitMs);
    const drawings = job.drawings ? [...job.drawings] : undefined;
    this.worker.postMessage({ id: job.id, markdown: job.markdown, options: job.options, drawings } satisfies ToSectionWorker);
  }

  private finish(html: string): void {
    const job = this.current;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
    job?.resolve(html);
    this.pump();
  }

  /** The section took too long: answered as plain text, and the worker (still busy with it) replaced. */
  private overrun(): void {
    const job = this.current;
    if (!job) return;
    console.error(`a section (${job.options.idPrefix ?? "no id"}) took over ${this.limitMs} ms to render; shown as plain text`);
    const stuck = this.worker;
    this.worker = this.start();
    void stuck.terminate();
    this.finish(plainSection(job.markdown, "it took too long to lay out"));
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = e;
    if (this.timer) clearTimeout(this.timer);
    const jobs = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = null;
    // The caller renders them in its own thread (renderSection's catch).
    for (const job of jobs) job.resolve(Promise.reject(e) as never);
    void this.worker.terminate();
  }
}
