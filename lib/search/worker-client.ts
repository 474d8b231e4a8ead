import type { Worker } from "node:worker_threads";
import type { PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";
import { noteChanges, SLICE_MS, type RankedHit } from "./engine";
import type { FromWorker, ToWorker } from "./worker-protocol";

/**
 * Where the worker keeps its index between starts, and how to read the published notes of the
 * commit a saved index holds (null when that commit cannot be read: then the worker builds anew).
 */
export type Restore = { file: string; notesAt: (commit: string) => Promise<ReadonlyMap<string, Note> | null> };

// Notes per message: cloning one costs this thread about 10–20 µs, so a message is well under a
// slice, and a slice posts as many as fit in SLICE_MS.
const CHUNK = 50;

/**
 * The server's side of the search worker (./worker.ts). What it posts is applied in order, so it
 * keeps one chain of posting steps: the first build (every note, posted in slices of SLICE_MS, so
 * cloning 10,000 notes never holds a request up for long), then per commit the notes that differ
 * from what the worker already holds, then each query. `target` is the view the worker holds once
 * everything posted is applied. A worker that fails (an error, an exit, an error answer) is
 * stopped, every pending answer is rejected, and the caller searches in its own thread.
 *
 * With `restore`, the first build starts from the index the worker saved in a previous run: the
 * worker loads it, and only the notes that differ between its commit and the view are posted.
 */
export class SearchWorker {
  failed: Error | null = null;
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (value: RankedHit[] | string | null) => void; reject: (e: Error) => void }>();
  private tail: Promise<void> = Promise.resolve();
  private target: { commit: string; byId: ReadonlyMap<string, Note> } | null = null;
  private built: Promise<void> | null = null;
  private opened: Promise<RankedHit[] | string | null> | null = null;
  /** Notes posted to the worker so far (a test tells a restored index from a full build by it). */
  posted = 0;

  constructor(
    spawn: () => Worker,
    private readonly restore: Restore | null = null,
  ) {
    this.worker = spawn();
    // An idle worker never keeps the process alive (a script, a test, a server shutting down).
    this.worker.unref();
    this.worker.on("message", (answer: FromWorker) => {
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (answer.ok) waiting?.resolve(answer.value);
      else this.fail(new Error(answer.error));
    });
    this.worker.on("error", (e) => this.fail(e));
    this.worker.on("exit", (code) => this.fail(new Error(`the search worker exited with code ${code}`)));
  }

  /** Resolves once the worker holds an index (the first build, of this view); searches then move it. */
  ready(view: PublishedView): Promise<void> {
    this.built ??= this.build(view);
    return this.built;
  }

  /** The ranked hits of `query` on `view` (no passages: the caller holds the notes). */
  async search(view: PublishedView, query: string, limit: number): Promise<RankedHit[]> {
    await this.ready(view);
    void this.moveTo(view).catch(() => {});
    const hits = await this.request((id) => ({ t: "search", id, commit: view.commit, query, limit }));
    return Array.isArray(hits) ? hits : [];
  }

  /** Have the worker load its saved index now, before any view is known (a server's start). */
  preload(): void {
    if (this.restore) this.opened ??= this.request((id) => ({ t: "open", id, file: this.restore!.file }));
  }

  /** Save the worker's index now rather than when the worker would (a test). */
  async save(): Promise<void> {
    await this.request((id) => ({ t: "save", id }));
  }

  private async build(view: PublishedView): Promise<void> {
    if (this.restore && (await this.restored(view, this.restore))) return;
    this.target = { commit: view.commit, byId: view.byId };
    void this.chain(() => this.postSliced(view.notes, (notes) => ({ t: "add", notes }))).catch(() => {});
    await this.request((id) => ({ t: "at", id, commit: view.commit }));
  }

  /** Whether the worker loaded a saved index and was moved from its commit to the view. */
  private async restored(view: PublishedView, restore: Restore): Promise<boolean> {
    const commit = await (this.opened ??= this.request((id) => ({ t: "open", id, file: restore.file })));
    if (typeof commit !== "string") return false;
    const notes = commit === view.commit ? view.byId : await restore.notesAt(commit).catch(() => null);
    if (!notes) {
      // Its commit is gone from the repository (a force-push, a new clone): build from the notes.
      void this.chain(() => this.worker.postMessage({ t: "clear" } satisfies ToWorker)).catch(() => {});
      return false;
    }
    this.target = { commit, byId: notes };
    await this.moveTo(view);
    return true;
  }

  /** Stop the worker (a test's end); pending answers are rejected. */
  stop(): Promise<number> {
    this.fail(new Error("the search worker was stopped"));
    return this.worker.terminate();
  }

  /** Post what moves the worker's index from the target view to `view` (the notes whose object differs); resolves once it is there. */
  private async moveTo(view: PublishedView): Promise<void> {
    const from = this.target!;
    if (from.commit === view.commit) return;
    this.target = { commit: view.commit, byId: view.byId };
    const changes = [...noteChanges(from.byId, view.byId)];
    void this.chain(() => this.postSliced(changes, (chunk) => ({ t: "move", changes: chunk }))).catch(() => {});
    await this.request((id) => ({ t: "at", id, commit: view.commit }));
  }

  private chain(post: () => void | Promise<void>): Promise<void> {
    const done = this.tail.then(() => {
      if (this.failed) throw this.failed;
      return post();
    });
    this.tail = done.catch(() => {});
    return done;
  }

  private request(message: (id: number) => ToWorker): Promise<RankedHit[] | string | null> {
    return new Promise((resolve, reject) => {
      this.chain(() => {
        const id = this.next++;
        this.pending.set(id, { resolve, reject });
        this.worker.postMessage(message(id));
      }).catch(reject);
    });
  }

  private async postSliced<T>(items: readonly T[], message: (chunk: T[]) => ToWorker): Promise<void> {
    let i = 0;
    while (i < items.length) {
      const until = performance.now() + SLICE_MS;
      do {
        const chunk = items.slice(i, i + CHUNK);
        this.worker.postMessage(message(chunk));
        this.posted += chunk.length;
        i += CHUNK;
      } while (i < items.length && performance.now() < until);
      if (i < items.length) await new Promise((resolve) => setImmediate(resolve));
      if (this.failed) throw this.failed;
    }
  }

  private fail(e: Error): void {
    if (this.failed) return;
    this.failed = e;
    for (const { reject } of this.pending.values()) reject(e);
    this.pending.clear();
    void this.worker.terminate();
  }
}
