import type { Worker } from "node:worker_threads";
import type { DiagramResult } from "./diagram-svg";
import type { FromDiagramWorker, ToDiagramWorker } from "./diagram-worker-protocol";

/**
 * The request thread's side of the diagram worker (./diagram-worker.ts). Sources are laid out one
 * at a time, in the order asked; each has `timeLimitMs` from the moment it reaches a ready worker.
 * A layout that runs longer is not waited for: the worker is terminated (which stops a synchronous
 * layout where it stands), the source is answered with a refusal that says so, and the next source
 * gets a new worker. A worker that dies while drawing costs that source its drawing, with the
 * reason, and nothing else. A worker that cannot start at all sets `failed`; the caller then draws
 * in its own thread, within the size limits (./diagrams.ts).
 */

/** How long a worker may take to load the renderer before it counts as one that cannot start. */
const START_LIMIT_MS = 30_000;

type Task = { source: string; resolve: (result: DiagramResult) => void; reject: (e: Error) => void };

export class DiagramWorker {
  /** Why the worker cannot start; once set, every draw is refused with it and the caller draws itself. */
  failed: Error | null = null;
  private worker: Worker | null = null;
  private ready: Promise<Worker> | null = null;
  private readonly queue: Task[] = [];
  private busy = false;
  private next = 1;
  /** Workers started so far (a test tells a replaced worker by it). */
  started = 0;

  constructor(
    private readonly spawn: () => Worker,
    readonly timeLimitMs: number,
  ) {}

  /** The checked drawing of `source`, or a refusal naming the time limit or the renderer's failure. */
  draw(source: string): Promise<DiagramResult> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.queue.push({ source, resolve, reject });
      void this.pump();
    });
  }

  /** Stop the worker (a test's end, a server's); sources still waiting are refused with the reason. */
  async stop(): Promise<void> {
    this.failed ??= new Error("the diagram worker was stopped");
    for (const task of this.queue.splice(0)) task.reject(this.failed);
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    if (worker) await worker.terminate();
  }

  private async pump(): Promise<void> {
    if (this.busy) return;
    const task = this.queue.shift();
    if (!task) {
      // An idle worker never keeps the process alive (a script, a test, a server shutting down).
      this.worker?.unref();
      return;
    }
    this.busy = true;
    try {
      task.resolve(await this.run(task.source));
    } catch (e) {
      task.reject(e as Error);
      // It could not start: every source still waiting is drawn by the caller.
      for (const waiting of this.queue.splice(0)) waiting.reject(e as Error);
    } finally {
      this.busy = false;
      void this.pump();
    }
  }

  private async run(source: string): Promise<DiagramResult> {
    const worker = await this.start();
    worker.ref();
    return new Promise((resolve) => {
      const id = this.next++;
      const done = (result: DiagramResult, end: boolean) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (end) this.discard(worker);
        resolve(result);
      };
      const onMessage = (m: FromDiagramWorker) => {
        if (m.t === "drawn" && m.id === id) done(m.result, false);
      };
      const onError = (e: Error) => done({ ok: false, error: `the diagram renderer failed: ${oneLine(e.message)}` }, true);
      const onExit = (code: number) => done({ ok: false, error: `the diagram renderer stopped (exit code ${code})` }, true);
      const timer = setTimeout(() => done({ ok: false, error: `drawing it took longer than ${seconds(this.timeLimitMs)}` }, true), this.timeLimitMs);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ id, source } satisfies ToDiagramWorker);
    });
  }

  /** The current worker once its renderer is loaded; a new one when there is none. */
  private start(): Promise<Worker> {
    if (this.failed) return Promise.reject(this.failed);
    this.ready ??= new Promise<Worker>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = this.spawn();
      } catch (e) {
        reject(e as Error);
        return;
      }
      this.worker = worker;
      this.started++;
      const settle = (error: Error | null) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        if (error) reject(error);
        else resolve(worker);
      };
      const onMessage = (m: FromDiagramWorker) => m.t === "ready" && settle(null);
      const onError = (e: Error) => settle(e);
      const onExit = (code: number) => settle(new Error(`the diagram worker exited with code ${code} before it was ready`));
      const timer = setTimeout(() => settle(new Error(`the diagram worker was not ready after ${seconds(START_LIMIT_MS)}`)), START_LIMIT_MS);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      // Once ready, a worker that dies between sources is simply replaced by the next source.
      worker.on("exit", () => {
        if (this.worker === worker) this.discard(worker);
      });
    }).catch((e: Error) => {
      this.failed = e;
      this.discard(this.worker);
      throw e;
    });
    return this.ready;
  }

  private discard(worker: Worker | null): void {
    if (worker && this.worker === worker) {
      this.worker = null;
      this.ready = null;
    }
    if (worker) void worker.terminate();
  }
}

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`;
const oneLine = (s: string) => s.replace(/\s+/g, " ").trim().slice(0, 200);
