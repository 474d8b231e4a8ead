import { randomBytes } from "node:crypto";
import type { ImportProgress } from "./import";

/**
 * Imports the studio started: run in this process, one at a time (a second is refused while one
 * runs), each known by an id whose progress and outcome the Import page polls. Kept on globalThis
 * (Next loads a module once per bundle layer, and the start and the poll are different routes) and
 * in memory only: a restart forgets them, as it stops the run (whose work refs are then garbage;
 * the branches are as they were).
 */

export type JobState = "running" | "done" | "failed";

export type ImportJob<R, E> = {
  id: string;
  by: string;
  started: string;
  finished: string | null;
  state: JobState;
  progress: ImportProgress;
  result: R | null;
  error: E | null;
};

type Registry = { jobs: Map<string, ImportJob<unknown, unknown>>; running: string | null };

const KEY = Symbol.for("field-notes.import-jobs");
const holder = globalThis as typeof globalThis & { [KEY]?: Registry };
const registry = (): Registry => (holder[KEY] ??= { jobs: new Map(), running: null });

/** Finished jobs kept for their page to read. */
const KEEP = 20;

export const startingProgress = (): ImportProgress => ({ stage: "reading", records: { done: 0, total: 0 }, commits: { done: 0, total: 0 } });

/** The job that runs now, if any. */
export function runningJob<R, E>(): ImportJob<R, E> | null {
  const r = registry();
  return r.running ? ((r.jobs.get(r.running) as ImportJob<R, E> | undefined) ?? null) : null;
}

/**
 * Starts `work` as a job (the caller checked none runs: this throws if one does). `work` is told
 * how to report progress; its answer is the result, and what it throws becomes the error by `failure`.
 */
export function startJob<R, E>(by: string, work: (progress: (p: ImportProgress) => void) => Promise<R>, failure: (e: unknown) => E): ImportJob<R, E> {
  const r = registry();
  if (r.running) throw new Error(`the import ${r.running} is running`);
  const job: ImportJob<R, E> = {
    id: randomBytes(6).toString("hex"),
    by,
    started: new Date().toISOString(),
    finished: null,
    state: "running",
    progress: startingProgress(),
    result: null,
    error: null,
  };
  r.jobs.set(job.id, job as ImportJob<unknown, unknown>);
  r.running = job.id;
  const end = (state: JobState) => {
    job.state = state;
    job.finished = new Date().toISOString();
    r.running = null;
    const finished = [...r.jobs.values()].filter((j) => j.state !== "running");
    for (const old of finished.slice(0, Math.max(0, finished.length - KEEP))) r.jobs.delete(old.id);
  };
  // Started on the next turn, so the caller answers with the job before the work's first await.
  setImmediate(() => {
    work((p) => (job.progress = p)).then(
      (result) => {
        job.result = result;
        end("done");
      },
      (e: unknown) => {
        job.error = failure(e);
        end("failed");
      },
    );
  });
  return job;
}

export function jobOf<R, E>(id: string): ImportJob<R, E> | null {
  return (registry().jobs.get(id) as ImportJob<R, E> | undefined) ?? null;
}
