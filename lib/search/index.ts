import fs from "node:fs";
import { LRUCache } from "lru-cache";
import { isMainThread, Worker } from "node:worker_threads";
import { phaseTitlesAt, readPhases } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import { publishedNotes } from "@/lib/content/published-notes";
import type { Note } from "@/lib/notes/schema";
import { phaseTitlesOf, type PhaseTitles } from "@/lib/phases/schema";
import { searchIndexFile } from "@/lib/read-model";
import { readSide } from "@/lib/read-model/read-side";
import { getContentStore } from "@/lib/working-copy/content-store";
import { engineReady, searchInThread, searchQuery, withPassage, type SearchHit } from "./engine";
import { searchedPhase } from "./fields";
import { SearchWorker, type Restore } from "./worker-client";

/**
 * Search over the published notes, as the pages, agent formats and MCP ask for it. In the server
 * (Next's Node.js runtime) the index lives in a worker thread (./worker.ts), so its first build
 * and every ranking run beside the request thread, not on it: a capsule never waits behind a
 * search. Anywhere else (tests, scripts), or once the worker has failed, the same engine
 * (./engine.ts) runs in this thread. Either way a query's answer is the same, and so is its
 * passage, cut here from the whole note for the returned hits only. The worker keeps its index
 * in the read model's folder, so a restart loads it and moves it by the notes changed since.
 *
 * A renamed phase's title is searched too: callers pass the commit's renamed phases (`titles`,
 * lib/content/phases.ts `phaseTitlesAt`; none in tests and scripts), and the index is given the
 * view as `searchView` makes it.
 */

export { FIELD_LABEL, liveIndex, moveIndex, newSearchIndex, type SearchHit } from "./engine";

// In the read side's state: Next loads this module once per bundle layer, and they must share one worker.
const state = () => (readSide().searchWorker ??= { worker: undefined });

// The worker runs bundled code: only Next's server bundles it (Turbopack compiles the worker entry
// named here). FIELD_NOTES_SEARCH_WORKER=off keeps search in the request thread.
const bundled = () => isMainThread && process.env.NEXT_RUNTIME === "nodejs" && process.env.FIELD_NOTES_SEARCH_WORKER !== "off";

function searchWorker(): SearchWorker | null {
  const s = state();
  if (s.worker === undefined) {
    try {
      s.worker = bundled() ? new SearchWorker(() => new Worker(new URL("./worker.ts", import.meta.url)), restoreFrom()) : null;
    } catch (e) {
      console.error("the search worker did not start; searching in the request thread", e);
      s.worker = null;
    }
  }
  return s.worker && !s.worker.failed ? s.worker : null;
}

/**
 * The view as search indexes it: each note of a renamed phase is a copy whose `phase` reads the
 * title with the name (./fields.ts `searchedPhase`), so the phase field, the exact-phrase rule and
 * the passage see the title, in the worker too (it is sent the notes, and keeps and saves their
 * `phase`). A note's copy is kept while its phase reads the same, so the index moves by the notes
 * whose file or phase title changed (engine.ts `noteChanges` compares objects), and a rename's
 * commit moves it by that phase's notes: the new title matches, the old one no longer does. With
 * no phase renamed it is the view itself.
 */
export function searchView(view: PublishedView, titles: PhaseTitles): PublishedView {
  const key = JSON.stringify(titles);
  const { views } = searchCopies();
  const kept = views.get(view);
  if (kept?.key === key) return kept.view;
  const searched = Object.keys(titles).length ? withPhaseTitles(view, titles) : view;
  views.set(view, { key, view: searched });
  return searched;
}

/**
 * The searched views and notes, kept in the read side's handle rather than beside this code: the
 * search page and the agents' routes load this module in different bundle layers, and copies made
 * in each would be different objects for the same note, which the worker takes for a change.
 */
export type SearchCopies = { views: WeakMap<PublishedView, { key: string; view: PublishedView }>; notes: WeakMap<Note, Note> };
const searchCopies = () => (readSide().searchCopies ??= { views: new WeakMap(), notes: new WeakMap() });

function searchedNote(note: Note, titles: PhaseTitles): Note {
  const phase = searchedPhase(titles, note.phase);
  if (phase === note.phase) return note;
  const { notes } = searchCopies();
  let copy = notes.get(note);
  if (copy?.phase !== phase) notes.set(note, (copy = { ...note, phase }));
  return copy;
}

function withPhaseTitles(view: PublishedView, titles: PhaseTitles): PublishedView {
  return { ...view, notes: view.notes.map((note) => searchedNote(note, titles)), byId: searchedNotes(view.byId, titles) };
}

function searchedNotes(notes: ReadonlyMap<string, Note>, titles: PhaseTitles): ReadonlyMap<string, Note> {
  const searched = new Map<string, Note>();
  for (const [id, note] of notes) searched.set(id, searchedNote(note, titles));
  return searched;
}

/**
 * The saved index's file and the published notes at its commit, read from the content store, as
 * search read them then (with that commit's phase titles), so the index forgets exactly what it held.
 */
function restoreFrom(): Restore | null {
  const file = searchIndexFile();
  const notesAt = async (commit: string) => {
    const store = await getContentStore();
    const [notes, phases] = await Promise.all([store.snapshot(commit).then(publishedNotes), readPhases(store, commit)]);
    return searchedNotes(notes, phaseTitlesOf(phases.map((p) => p.phase)));
  };
  return file ? { file, notesAt } : null;
}

/** Search through a worker started by `spawn` (a test of the worker; stop the last one first). */
export function startSearchWorker(spawn: () => Worker, restore: Restore | null = null): SearchWorker {
  return (state().worker = new SearchWorker(spawn, restore));
}

/**
 * At a start: have the worker load the index it saved, if it saved one, without waiting for a
 * search to ask, and in its own thread while this one reads the published view; then, once
 * `view` resolves, move it there (a start with nothing saved leaves the first build to the first search).
 */
export async function loadSavedIndex(view: Promise<PublishedView>): Promise<void> {
  const file = searchIndexFile();
  const worker = file && fs.existsSync(file) ? searchWorker() : null;
  if (!worker) return;
  worker.preload();
  const published = await view;
  await searchReady(published, await phaseTitlesAt(published.commit));
}

/**
 * Resolves once a search on this view can be answered: the index exists, in the worker or here.
 * `titles`: the view's commit's renamed phases, as its searches will pass them.
 */
export async function searchReady(published: PublishedView, titles: PhaseTitles = {}): Promise<void> {
  const view = searchView(published, titles);
  const worker = searchWorker();
  if (worker) {
    try {
      return await worker.ready(view);
    } catch (e) {
      console.error("the search worker failed; searching in the request thread", e);
    }
  }
  await engineReady(view);
}

// Answers repeated per commit: a reader paging back, an agent asking again. Keyed by commit, so a
// new commit never sees an old answer; bounded, oldest out first.
const kept = () => (readSide().searchAnswers ??= new LRUCache<string, SearchHit[]>({ max: 256 }));

/** Forget the kept answers (a benchmark timing the search itself). */
export function forgetAnswers(): void {
  kept().clear();
}

/**
 * The best `limit` notes for `q` (50 by default), each with the passage that matched. `titles`: the
 * view's commit's renamed phases (`phaseTitlesAt`), whose titles are searched as the phase.
 */
export async function searchNotes(published: PublishedView, q: string, opts: { limit?: number; titles?: PhaseTitles } = {}): Promise<SearchHit[]> {
  const query = searchQuery(q);
  if (!query) return [];
  const limit = opts.limit ?? 50;
  const titles = opts.titles ?? {};
  const view = searchView(published, titles);
  const key = `${view.commit}\u0000${limit}\u0000${JSON.stringify(titles)}\u0000${query}`;
  const answers = kept();
  const known = answers.get(key);
  if (known) return known.map((hit) => ({ ...hit }));
  const hits = await search(view, query, limit);
  answers.set(key, hits);
  return hits.map((hit) => ({ ...hit }));
}

async function search(view: PublishedView, query: string, limit: number): Promise<SearchHit[]> {
  const worker = searchWorker();
  if (worker) {
    try {
      const ranked = await worker.search(view, query, limit);
      return ranked.map((hit) => withPassage(view.byId.get(hit.id)!, hit));
    } catch (e) {
      console.error("the search worker failed; searching in the request thread", e);
      await engineReady(view);
    }
  }
  return searchInThread(view, query, limit);
}
