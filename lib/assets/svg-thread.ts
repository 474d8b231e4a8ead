import { isMainThread, Worker } from "node:worker_threads";
import { sanitizeSvg, type SvgResult } from "./svg";

/**
 * Where an SVG is sanitised. In the server (Next's Node.js runtime) it is one worker thread
 * (./svg-worker.ts), fed one file at a time: a parse never holds up a request, three uploads in
 * parallel cost the memory of one, and a parse past SVG_WORKER_BOUNDS (time, heap) stops the worker
 * and refuses the file instead of holding the server. The count before parsing (./svg-scan.ts)
 * refuses almost every such file first; these bounds catch what it does not model. Anywhere else
 * (tests, content:check) the same function runs in the caller's thread unless a test starts the
 * worker (`startSvgWorker`). Why: docs/decisions/svg-uploads-bounded.md.
 */

export type ToSvgWorker = { id: number; text: string };
export type FromSvgWorker = { id: number; ok: true; value: SvgResult } | { id: number; ok: false; error: string };

/** How long one SVG may take and how much heap the worker may use, before the file is refused. */
export const SVG_WORKER_BOUNDS = { ms: 30_000, heapMb: 512 };
// jsdom is ~50 MB resident: a worker left idle this long is stopped, and the next SVG starts another.
const IDLE_MS = 60_000;

/** An SVG the worker could not sanitise within its bounds: `reason` names the bound, for the refusal. */
export class SvgTooComplex extends Error {
  readonly code = "svg-too-complex";
  constructor(readonly reason: string) {
    super(reason);
  }
}

type Spawn = () => Worker;
type Bounds = typeof SVG_WORKER_BOUNDS;
type State = { spawn: Spawn | null; bounds: Bounds; worker: Worker | null; tail: Promise<unknown>; next: number; idle: ReturnType<typeof setTimeout> | null };
// On globalThis: Next may load this module once per bundle layer, and they must share one worker.
const KEY = Symbol.for("field-notes.svg-worker");
const holder = globalThis as typeof globalThis & { [KEY]?: State };
const state = (): State =>
  (holder[KEY] ??= {
    spawn: bundled() ? () => spawnBundled(SVG_WORKER_BOUNDS) : null,
    bounds: SVG_WORKER_BOUNDS,
    worker: null,
    tail: Promise.resolve(),
    next: 1,
    idle: null,
  });

// Only Next's server bundles the worker entry (Turbopack compiles the file named here).
const bundled = () => isMainThread && process.env.NEXT_RUNTIME === "nodejs";
type WorkerLimits = { resourceLimits: { maxOldGenerationSizeMb: number } };
const limits = (bounds: Bounds): WorkerLimits => ({ resourceLimits: { maxOldGenerationSizeMb: bounds.heapMb } });
const spawnBundled = (bounds: Bounds) => new Worker(new URL("./svg-worker.ts", import.meta.url), limits(bounds));

/**
 * Sanitise in a worker started by `spawn`, within `bounds`, from now on (a test runs the real
 * entry through tsx); null: in this thread.
 */
export function startSvgWorker(spawn: ((options: WorkerLimits) => Worker) | null, bounds: Bounds = SVG_WORKER_BOUNDS): void {
  const s = state();
  stop(s);
  s.bounds = bounds;
  s.spawn = spawn && (() => spawn(limits(bounds)));
}

/** The SVG sanitised off the request thread; rejects with SvgTooComplex past the worker's bounds. */
export function sanitizeSvgOffThread(text: string): Promise<SvgResult> {
  const s = state();
  if (!s.spawn) return sanitizeSvg(text);
  const run = s.tail.then(() => inWorker(s, text));
  s.tail = run.catch(() => {});
  return run;
}

function inWorker(s: State, text: string): Promise<SvgResult> {
  if (s.idle) clearTimeout(s.idle);
  let worker: Worker;
  try {
    worker = s.worker ??= started(s);
  } catch (e) {
    // No worker could start: the count before parsing still bounds what this thread parses.
    console.error("the SVG worker did not start; sanitising in the request thread", e);
    s.spawn = null;
    return sanitizeSvg(text);
  }
  const id = s.next++;
  const { bounds } = s;
  return new Promise<SvgResult>((resolve, reject) => {
    const settle = (how: () => void) => {
      clearTimeout(timer);
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      s.idle = setTimeout(() => stop(s), IDLE_MS).unref();
      how();
    };
    const onMessage = (answer: FromSvgWorker) => {
      if (answer.id !== id) return;
      settle(() => (answer.ok ? resolve(answer.value) : reject(new Error(answer.error))));
    };
    const onError = (e: Error & { code?: string }) => {
      stop(s);
      settle(() =>
        reject(e.code === "ERR_WORKER_OUT_OF_MEMORY" ? new SvgTooComplex(`checking it needed more than the ${bounds.heapMb} MB an SVG may take`) : e),
      );
    };
    const onExit = (code: number) => {
      stop(s);
      settle(() => reject(new Error(`the SVG worker exited with code ${code}`)));
    };
    const timer = setTimeout(() => {
      stop(s);
      settle(() => reject(new SvgTooComplex(`checking it took longer than the ${bounds.ms / 1000} s an SVG may take`)));
    }, bounds.ms);
    worker.on("message", onMessage);
    worker.on("error", onError);
    worker.on("exit", onExit);
    worker.postMessage({ id, text } satisfies ToSvgWorker);
  });
}

function started(s: State): Worker {
  const worker = s.spawn!();
  // An idle worker never keeps the process alive (a script, a test, a server shutting down).
  worker.unref();
  return worker;
}

function stop(s: State): void {
  if (s.idle) clearTimeout(s.idle);
  s.idle = null;
  const worker = s.worker;
  s.worker = null;
  if (worker) void worker.terminate().catch(() => {});
}
