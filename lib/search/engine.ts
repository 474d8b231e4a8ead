import type { PublishedView } from "@/lib/content/published";
import { compareIds, type Note } from "@/lib/notes/schema";
import { SEARCH_FIELDS, searchDocument, searchField, type SearchDocument } from "./fields";
import { passageAround } from "./passage";
import { scoreQuery, type Match, type QueryTerm } from "./score";
import { TermIndex } from "./term-index";
import { normalizeTerm, tokenize } from "./terms";
import { readSide } from "@/lib/read-model/read-side";

/**
 * The search engine: full-text search over the published notes, every field, ranked (BM25 with
 * field boosts), with the passage that matched. It runs where its index lives: in the server's
 * search worker thread (./worker.ts) or, with no worker (tests, scripts, a worker that failed),
 * in this thread, where there is one live index per process. The index is the project's own
 * (./term-index.ts), scored by ./score.ts. A new commit moves an index by the notes that changed
 * (remove, add), never by rebuilding it; an in-thread first build runs
 * in slices of at most SLICE_MS between requests. Passages are cut for the returned hits only.
 * Callers go through ./index.ts, which chooses where.
 */

/**
 * What ranking needs of a note: its id and the short fields the exact-phrase rule reads. Its `phase`
 * is the phase as search reads it (./fields.ts `searchedPhase`: a renamed phase's title with its name).
 */
export type SearchNote = Pick<Note, "id" | "title" | "tags" | "summary" | "phase" | "core">;
/** The notes an index holds, by id, at one commit: a published view, or the worker's copy of one. */
export type SearchView = { commit: string; byId: ReadonlyMap<string, SearchNote> };
/** A hit before its passage is cut (the worker answers these; the passage needs the whole note). */
export type RankedHit = { id: string; score: number; field: string; terms: string[] };

export type SearchHit = {
  id: string;
  score: number;
  /** The field where the best match is (a key of FIELD_LABEL: "title", "evidence", …). */
  field: string;
  /** Plain text excerpt of that field around the match. */
  passage: string;
  /** The words of the note that matched the query, for highlighting. */
  terms: string[];
};

export { FIELD_LABEL } from "./fields";

const FIELDS = SEARCH_FIELDS.map((f) => f.field);
const BOOST: Record<string, number> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.boost]));
// How long one slice of the first build may hold the event loop: a request that arrives during
// the build waits at most about this long. (Slices of a fixed 24 notes took 20–40 ms each at
// 10,000 bench notes, longer on a loaded machine; `npm run bench:search` measures both.)
export const SLICE_MS = 4;

/** The live index: which commit it holds and the note objects it was built from (one per blob). */
export type LiveIndex = { commit: string; notes: ReadonlyMap<string, Note>; search: TermIndex };
export type SearchIndexState = { live: LiveIndex | null; building: Promise<LiveIndex> | null };

// In the read side's state: Next loads this module once per bundle layer, and they must share one index.
const state = (): SearchIndexState => (readSide().searchIndex ??= { live: null, building: null });

export const newSearchIndex = () => new TermIndex(FIELDS);

export function liveIndex(): LiveIndex | null {
  return state().live;
}

/**
 * Resolves once an in-thread search on this view answers without building: the live index exists
 * (it is moved to the view's commit by the changed notes at search time). The first build runs
 * here, in slices; every caller awaits the same build.
 */
export async function engineReady(view: PublishedView): Promise<void> {
  const s = state();
  if (s.live) return;
  s.building ??= buildInSlices(view).then(
    (live) => {
      s.live ??= live;
      s.building = null;
      return live;
    },
    (e) => {
      s.building = null;
      throw e;
    },
  );
  await s.building;
}

async function buildInSlices(view: PublishedView): Promise<LiveIndex> {
  const search = newSearchIndex();
  let i = 0;
  while (i < view.notes.length) {
    const until = performance.now() + SLICE_MS;
    do search.add(indexed(view.notes[i++]!));
    while (i < view.notes.length && performance.now() < until);
    await new Promise((resolve) => setImmediate(resolve));
  }
  search.trim();
  return { commit: view.commit, notes: view.byId, search };
}

/** The live index, moved to the view by the notes that differ. */
function indexAt(view: PublishedView): LiveIndex {
  const s = state();
  if (!s.live) {
    // No one awaited searchReady (a script, a test): build here, at once.
    const search = newSearchIndex();
    for (const note of view.notes) search.add(indexed(note));
    search.trim();
    s.live = { commit: view.commit, notes: view.byId, search };
  }
  const live = s.live;
  if (live.commit === view.commit) return live;
  moveIndex(live.search, live.notes, view.byId);
  s.live = { commit: view.commit, notes: view.byId, search: live.search };
  return s.live;
}

/**
 * Apply the difference between two sets of notes to an index that holds `from`. A note leaves by
 * `remove` with its old document, so term statistics (and so scores) are exactly a fresh build's.
 */
export function moveIndex(search: TermIndex, from: ReadonlyMap<string, Note>, to: ReadonlyMap<string, Note>): number {
  let changed = 0;
  for (const { old, note } of noteChanges(from, to)) {
    // A renamed phase's note (the same note, its phase read anew: ./index.ts `searchView`) changes
    // its phase field only. Removed and added whole, 1,000 such notes (10,000 in all) took 1.6–2.1 s
    // of this thread, converting every section twice; 0.13–0.55 s this way (both at load 9 on 2 cores).
    if (old && note && onlyPhaseDiffers(old, note)) {
      phraseFields(note);
      search.replaceField(note.id, "phase", searchField(old, "phase"), searchField(note, "phase"));
    } else {
      if (old) search.remove(searchDocument(old));
      if (note) search.add(indexed(note));
    }
    changed++;
  }
  return changed;
}

/** Whether two versions of a note differ in `phase` alone, every other field the very same value (a copy of one note). */
function onlyPhaseDiffers(old: Note, note: Note): boolean {
  const keys = Object.keys(note) as (keyof Note)[];
  if (keys.length !== Object.keys(old).length) return false;
  for (const key of keys) if (key !== "phase" && old[key] !== note[key]) return false;
  return true;
}

/**
 * The notes whose object differs between two sets (a note object is one blob): changed and removed
 * ones first, in `from`'s order, then added ones. The worker's index is moved by the same list, in
 * the same order, so its scores equal this thread's to the bit.
 */
export function* noteChanges(from: ReadonlyMap<string, Note>, to: ReadonlyMap<string, Note>): Generator<{ old: Note | null; note: Note | null }> {
  for (const [id, old] of from) {
    const note = to.get(id) ?? null;
    if (note !== old) yield { old, note };
  }
  for (const [id, note] of to) if (!from.has(id)) yield { old: null, note };
}

// How a query is read.
// Typing narrows: the last word may be unfinished. Long words forgive a typo; IDs and numbers do not.
const prefixOf = (term: string, i: number, terms: readonly string[]) => i === terms.length - 1 && term.length >= 3;
const fuzzyOf = (term: string) => (term.length >= 6 && !/\d/.test(term) ? 0.2 : false);
const WEIGHTS = { prefix: 0.5, fuzzy: 0.3 };

/** The query's terms as the index reads text (./terms.ts), with their expansions. */
function queryTerms(query: string): QueryTerm[] {
  const terms = tokenize(query)
    .map(normalizeTerm)
    .filter((t): t is string => !!t);
  return terms.map((term, i) => ({ term, prefix: prefixOf(term, i, terms), fuzzy: fuzzyOf(term) }));
}

/** A query as it is searched: trimmed, at most 500 characters ("" searches nothing). */
export const searchQuery = (q: string) => q.trim().slice(0, 500);

/** Search in this thread, on the live index moved to the view. */
export function searchInThread(view: PublishedView, query: string, limit: number): SearchHit[] {
  return rankQuery(view, indexAt(view).search, query, limit).map((hit) => withPassage(view.byId.get(hit.id)!, hit));
}

/**
 * The ranked hits of a query on an index that holds exactly `view`'s notes; no passages yet. The
 * coverage rule, the phrase lift and the choice of the top run on the score arrays (./score.ts), so
 * only the notes of the answer become objects.
 */
export function rankQuery(view: SearchView, search: TermIndex, query: string, limit: number): RankedHit[] {
  const scored = scoreQuery(search, queryTerms(query), { fields: FIELDS, boost: BOOST, weights: WEIGHTS });
  const phrase = normalizePhrase(query);
  const asked = Math.max(1, new Set(phrase.split(" ")).size);
  const { docs, matched, score } = scored;
  // A note that matches every word of the query outranks one that matches a rare word alone.
  const coverageOf = Array.from({ length: 33 }, (_, m) => Math.min(1, m / asked) ** 2);
  let most = 0;
  for (let i = 0; i < docs.length; i++) most = Math.max(most, matched[docs[i]!]!);
  // When some note matches the whole query, notes that share only a minor part of it are noise.
  const least = coverageOf[most]! < 1 ? 0 : 0.25;
  const kept = new Int32Array(docs.length);
  const base = new Float64Array(docs.length);
  let count = 0;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i]!;
    const coverage = coverageOf[matched[doc]!]!;
    if (coverage < least) continue;
    kept[count] = doc;
    base[count++] = score[doc]! * coverage;
  }
  // A final score is never below its base, so a note whose lifted base is below the limit-th best
  // base cannot make the top.
  const floor = count > limit ? largest(base.subarray(0, count), limit) : -Infinity;
  const lift = phrase.includes(" ") ? EXACT_LIFT : 1;
  const notes = notesByDoc(view, search);
  const top: { doc: number; note: SearchNote; score: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (base[i]! * lift < floor) continue;
    const note = notes[kept[i]!];
    if (!note) continue;
    const final = lift > 1 && hasPhrase(note, phrase) ? base[i]! * EXACT_LIFT : base[i]!;
    const entry = { doc: kept[i]!, note, score: final };
    if (top.length === limit && !ranksBefore(entry, top[limit - 1]!)) continue;
    let at = top.length;
    while (at > 0 && ranksBefore(entry, top[at - 1]!)) at--;
    top.splice(at, 0, entry);
    if (top.length > limit) top.length = limit;
  }
  return top.map(({ doc, note, score }) => {
    const match = scored.resultFor(doc);
    return { id: note.id, score, field: bestField(match), terms: match.terms };
  });
}

/** A ranked hit with its passage: an excerpt of the field it matched best, around the matched words. */
export function withPassage(note: Note, hit: RankedHit): SearchHit {
  return { id: hit.id, score: hit.score, field: hit.field, passage: passageAround(fieldText(note, hit.field), hit.terms), terms: hit.terms };
}

/** The order of the answer: final score, then note id in reading order (AFN-999 before AFN-1000). */
const ranksBefore = (a: { score: number; note: SearchNote }, b: { score: number; note: SearchNote }) =>
  a.score > b.score || (a.score === b.score && compareIds(a.note.id, b.note.id) < 0);

/** The k-th largest value (k ≤ values.length), by a sorted window of the k largest seen. */
function largest(values: Float64Array, k: number): number {
  const top = Array.from(values.subarray(0, k)).sort((a, b) => a - b);
  for (let i = k; i < values.length; i++) {
    const v = values[i]!;
    if (v <= top[0]!) continue;
    let at = 1;
    while (at < k && top[at]! < v) top[at - 1] = top[at++]!;
    top[at - 1] = v;
  }
  return top[0]!;
}

// The note of each doc of an index, kept for the view it was read from while the index is unchanged.
const notesOfIndex = new WeakMap<TermIndex, { view: SearchView; version: number; notes: (SearchNote | undefined)[] }>();
function notesByDoc(view: SearchView, index: TermIndex): (SearchNote | undefined)[] {
  const kept = notesOfIndex.get(index);
  if (kept && kept.view === view && kept.version === index.version) return kept.notes;
  const notes = Array.from({ length: index.docLimit }, (_, doc) => {
    const id = index.idOf(doc);
    return id === undefined ? undefined : view.byId.get(id);
  });
  notesOfIndex.set(index, { view, version: index.version, notes });
  return notes;
}

// The exact phrase in a title, tag or summary is what a reader means: it lifts a note's score.
const EXACT_LIFT = 1.5;

/** The fields the exact-phrase rule reads; cheap ones, so ranking never converts a section. */
function shortFields(note: SearchNote): string[] {
  return [note.title, note.tags.join(" · "), note.summary, note.id, `Phase ${note.phase}`, note.core?.label ?? ""];
}

// The short fields as the phrase test reads them, kept while the note object lives (one per blob):
// with a vocabulary as small as the bench's, thousands of notes are within reach of the top. Filled
// when a note is indexed, so no query pays for it.
const phraseTexts = new WeakMap<SearchNote, string[]>();
export function phraseFields(note: SearchNote): string[] {
  let texts = phraseTexts.get(note);
  if (!texts) phraseTexts.set(note, (texts = shortFields(note).map(normalizePhrase)));
  return texts;
}

const hasPhrase = (note: SearchNote, phrase: string) => phraseFields(note).some((text) => text.includes(phrase));

/** The search document of a note being indexed; its phrase texts are prepared on the way. */
function indexed(note: Note): SearchDocument {
  phraseFields(note);
  return searchDocument(note);
}

// The plain text of the one field a returned hit's passage is cut from, converted per hit and not
// kept: converting every section of the ten hits took about 0.5 ms of a query (p50, 10,000 notes)
// and kept each returned note's whole plain text alive for as long as the note object lived.
const fieldText = (note: Note, field: string): string => searchField(note, field);

/** The field that holds the most matched words, weighted by how much a match there counts. */
function bestField(result: Match): string {
  const weight = new Map<string, number>();
  for (const fields of Object.values(result.match)) {
    for (const f of fields) weight.set(f, (weight.get(f) ?? 0) + 10 + (BOOST[f] ?? 1));
  }
  let best = FIELDS[0] as string;
  let max = -1;
  for (const f of FIELDS) {
    const w = weight.get(f) ?? 0;
    if (w > max) [best, max] = [f, w];
  }
  return best;
}

function normalizePhrase(s: string) {
  return tokenize(s).map(normalizeTerm).filter(Boolean).join(" ");
}
