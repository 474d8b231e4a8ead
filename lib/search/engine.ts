import MiniSearch, { type SearchResult } from "minisearch";
import type { PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";
import { SEARCH_FIELDS, searchDocument, searchField, type SearchDocument } from "./fields";
import { passageAround } from "./passage";
import { compact, trimPostings } from "./postings";
import { scoreQuery, type QueryTerm, type ScoredQuery } from "./score";
import { normalizeTerm, tokenize } from "./terms";

/**
 * The search engine: full-text search over the published notes, every field, ranked (BM25 with
 * field boosts), with the passage that matched. It runs where its index lives: in the server's
 * search worker thread (./worker.ts) or, with no worker (tests, scripts, a worker that failed),
 * in this thread, where there is one live index per process. A new commit moves an index by the
 * notes that changed (MiniSearch remove/add), never by rebuilding it; an in-thread first build runs
 * in slices of at most SLICE_MS between requests. Passages are cut for the returned hits only.
 * Callers go through ./index.ts, which chooses where.
 */

/** What ranking needs of a note: its id and the short fields the exact-phrase rule reads. */
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
export const SEARCH_OPTIONS = { fields: FIELDS, idField: "id", tokenize, processTerm: normalizeTerm } as const;
// How long one slice of the first build may hold the event loop: a request that arrives during
// the build waits at most about this long. (Slices of a fixed 24 notes took 20–40 ms each at
// 10,000 bench notes, longer on a loaded machine; `npm run bench:search` measures both.)
export const SLICE_MS = 4;

/** The live index: which commit it holds and the note objects it was built from (one per blob). */
export type LiveIndex = { commit: string; notes: ReadonlyMap<string, Note>; search: MiniSearch<SearchDocument> };
type State = { live: LiveIndex | null; building: Promise<LiveIndex> | null };

// On globalThis: Next loads this module once per bundle layer, and they must share one index.
const KEY = Symbol.for("field-notes.search-index");
const holder = globalThis as typeof globalThis & { [KEY]?: State };
const state = (): State => (holder[KEY] ??= { live: null, building: null });

export const newSearchIndex = () => compact(new MiniSearch<SearchDocument>({ ...SEARCH_OPTIONS }));

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
  trimPostings(search);
  return { commit: view.commit, notes: view.byId, search };
}

/** The live index, moved to the view by the notes that differ. */
function indexAt(view: PublishedView): LiveIndex {
  const s = state();
  if (!s.live) {
    // No one awaited searchReady (a script, a test): build here, at once.
    const search = newSearchIndex();
    search.addAll(view.notes.map(indexed));
    trimPostings(search);
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
export function moveIndex(search: MiniSearch<SearchDocument>, from: ReadonlyMap<string, Note>, to: ReadonlyMap<string, Note>): number {
  let changed = 0;
  for (const { old, note } of noteChanges(from, to)) {
    if (old) search.remove(searchDocument(old));
    if (note) search.add(indexed(note));
    changed++;
  }
  return changed;
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

// How a query is read: MiniSearch's options, shared by both ways of scoring it below.
// Typing narrows: the last word may be unfinished. Long words forgive a typo; IDs and numbers do not.
const prefixOf = (term: string, i: number, terms: readonly string[]) => i === terms.length - 1 && term.length >= 3;
const fuzzyOf = (term: string) => (term.length >= 6 && !/\d/.test(term) ? 0.2 : false);
const WEIGHTS = { prefix: 0.5, fuzzy: 0.3 };

/** The query's terms as MiniSearch reads them (its tokenizer and term processing), with their expansions. */
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

/** The ranked hits of a query on an index that holds exactly `view`'s notes; no passages yet. */
export function rankQuery(view: SearchView, search: MiniSearch<SearchDocument>, query: string, limit: number): RankedHit[] {
  return rank(query, limit, scoredCandidates(search, view, query, limit) ?? miniSearchCandidates(search, view, query));
}

/** A ranked hit with its passage: an excerpt of the field it matched best, around the matched words. */
export function withPassage(note: Note, hit: RankedHit): SearchHit {
  return { id: hit.id, score: hit.score, field: hit.field, passage: passageAround(fieldText(note, hit.field), hit.terms), terms: hit.terms };
}

/**
 * The same answer from `MiniSearch.search` (one result object per match), no cache: what
 * `searchNotes` computed before the flat scorer, kept to hold the two equal (score.test.ts) and to
 * measure one against the other (`npm run bench:search`). In this thread.
 */
export function searchNotesReference(view: PublishedView, q: string, opts: { limit?: number } = {}): SearchHit[] {
  const query = searchQuery(q);
  if (!query) return [];
  const hits = rank(query, opts.limit ?? 50, miniSearchCandidates(indexAt(view).search, view, query));
  return hits.map((hit) => withPassage(view.byId.get(hit.id)!, hit));
}

/** A note that matched, before the phrase lift: its score, and how to get MiniSearch's result object for it. */
export type Scored = { id: string; note: SearchNote; coverage: number; base: number; result: () => SearchResult };

function rank(query: string, limit: number, scored: Scored[]): RankedHit[] {
  const phrase = normalizePhrase(query);
  // When some note matches the whole query, notes that share only a minor part of it are noise.
  const best = scored.reduce((max, h) => Math.max(max, h.coverage), 0);
  const kept = scored.filter((h) => best < 1 || h.coverage >= 0.25);
  const candidates = withinReach(kept, limit, phrase.includes(" ") ? EXACT_LIFT : 1).sort((a, b) => b.base - a.base);
  return topByFinalScore(candidates, phrase, limit).map(({ note, result, score }) => {
    const r = result();
    return { id: note.id, score, field: bestField(r), terms: r.terms };
  });
}

/**
 * The candidates that could still be in the top `limit` once lifted: a note whose base, lifted,
 * is below the limit-th best base is below `limit` final scores (a final score is never below its
 * base). Dropping those before sorting keeps the answer and spares sorting thousands.
 */
function withinReach(candidates: Scored[], limit: number, lift: number): Scored[] {
  if (candidates.length <= limit) return candidates;
  const bases = Float64Array.from(candidates, (c) => c.base).sort();
  const floor = bases[bases.length - limit]!;
  return candidates.filter((c) => c.base * lift >= floor);
}

/**
 * Candidates from the flat scorer (score.ts); null when it cannot read this index. The coverage
 * rule, the phrase lift and the choice of the top run on the score arrays, so only the notes of
 * the answer become objects; `rank` then orders them exactly as it orders MiniSearch's results.
 */
function scoredCandidates(search: MiniSearch<SearchDocument>, view: SearchView, query: string, limit: number): Scored[] | null {
  const terms = queryTerms(query);
  const scored = scoreQuery(search, terms, { fields: FIELDS, boost: BOOST, weights: WEIGHTS });
  if (!scored) return null;
  const phrase = normalizePhrase(query);
  const asked = Math.max(1, new Set(phrase.split(" ")).size);
  const { docs, matched, score } = scored;
  // Coverage by number of matched terms (the same formula as miniSearchCandidates).
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
  const notes = notesByDoc(view, scored);
  const top: { i: number; note: SearchNote; score: number }[] = [];
  for (let i = 0; i < count; i++) {
    if (base[i]! * lift < floor) continue;
    const note = notes[kept[i]!];
    if (!note) continue;
    const final = lift > 1 && hasPhrase(note, phrase) ? base[i]! * EXACT_LIFT : base[i]!;
    const entry = { i, note, score: final };
    if (top.length === limit && !ranksBefore(entry, top[limit - 1]!)) continue;
    let at = top.length;
    while (at > 0 && ranksBefore(entry, top[at - 1]!)) at--;
    top.splice(at, 0, entry);
    if (top.length > limit) top.length = limit;
  }
  return top.map(({ i, note }) => {
    const doc = kept[i]!;
    return { id: note.id, note, coverage: coverageOf[matched[doc]!]!, base: base[i]!, result: () => scored.resultFor(doc) };
  });
}

/** The order of the answer: final score, then note id. */
const ranksBefore = (a: { score: number; note: SearchNote }, b: { score: number; note: SearchNote }) =>
  a.score > b.score || (a.score === b.score && a.note.id.localeCompare(b.note.id) < 0);

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

// The note of each short document id of the index, per view (the index holds exactly the view).
const notesOfView = new WeakMap<SearchView, (SearchNote | undefined)[]>();
function notesByDoc(view: SearchView, scored: ScoredQuery): (SearchNote | undefined)[] {
  let notes = notesOfView.get(view);
  if (!notes || notes.length < scored.score.length) {
    notes = Array.from({ length: scored.score.length }, (_, doc) => view.byId.get(scored.idOf(doc)));
    notesOfView.set(view, notes);
  }
  return notes;
}

function miniSearchCandidates(search: MiniSearch<SearchDocument>, view: SearchView, query: string): Scored[] {
  const results = search.search(query, { boost: BOOST, prefix: prefixOf, fuzzy: fuzzyOf, weights: WEIGHTS });
  const asked = new Set(normalizePhrase(query).split(" ")).size;
  return results.flatMap((r) => {
    const note = view.byId.get(String(r.id));
    if (!note) return [];
    // A note that matches every word of the query outranks one that matches a rare word alone.
    const coverage = Math.min(1, r.queryTerms.length / Math.max(1, asked)) ** 2;
    return [{ id: note.id, note, coverage, base: r.score * coverage, result: () => r }];
  });
}

// The exact phrase in a title, tag or summary is what a reader means: it lifts a note's score.
const EXACT_LIFT = 1.5;

/**
 * The `limit` best notes by final score (base, lifted by EXACT_LIFT for the exact phrase), from
 * candidates sorted by base score. The phrase test is the costly part at thousands of matches, so
 * it runs only while a candidate could still enter the top: once even a lifted base falls below
 * the limit-th final score found so far, no later candidate can. The answer is exactly that of
 * lifting every candidate and sorting.
 */
export function topByFinalScore(candidates: Scored[], phrase: string, limit: number) {
  const lifts = phrase.includes(" ");
  const top: (Scored & { score: number })[] = [];
  const before = (a: { score: number; id: string }, b: { score: number; id: string }) =>
    a.score > b.score || (a.score === b.score && a.id.localeCompare(b.id) < 0);
  for (const c of candidates) {
    const last = top.length >= limit ? top[limit - 1] : undefined;
    if (last && c.base * (lifts ? EXACT_LIFT : 1) < last.score) break;
    const exact = lifts && hasPhrase(c.note, phrase);
    const score = c.base * (exact ? EXACT_LIFT : 1);
    // Most candidates in reach do not enter the top: compare with the last before placing one.
    if (last && !before({ score, id: c.id }, last)) continue;
    const entry = { ...c, score };
    let at = top.length;
    while (at > 0 && before(entry, top[at - 1]!)) at--;
    top.splice(at, 0, entry);
    if (top.length > limit) top.length = limit;
  }
  return top;
}

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
function bestField(result: SearchResult): string {
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
