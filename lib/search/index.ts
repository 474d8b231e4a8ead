import MiniSearch, { type SearchResult } from "minisearch";
import type { PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";
import { SEARCH_FIELDS, searchDocument, type SearchDocument } from "./fields";
import { passageAround } from "./passage";
import { normalizeTerm, tokenize } from "./terms";

/**
 * Full-text search over the published notes: every field, ranked (BM25 with field boosts), with
 * the passage that matched. There is one live index per process. A new commit moves it by the
 * notes that changed (MiniSearch remove/add), never by rebuilding it; the first build
 * (a fresh start with nothing persisted) runs in small slices between requests, and a search that
 * arrives meanwhile waits for it without holding up any other request. Passages are cut for the
 * returned hits only.
 */

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
// Notes indexed per slice of the first build: a slice takes a few milliseconds, so a request that
// arrives during the build waits at most that long.
const SLICE = 24;

/** The live index: which commit it holds and the note objects it was built from (one per blob). */
export type LiveIndex = { commit: string; notes: ReadonlyMap<string, Note>; search: MiniSearch<SearchDocument> };
type State = { live: LiveIndex | null; building: Promise<LiveIndex> | null };

// On globalThis: Next loads this module once per bundle layer, and they must share one index.
const KEY = Symbol.for("field-notes.search-index");
const holder = globalThis as typeof globalThis & { [KEY]?: State };
const state = (): State => (holder[KEY] ??= { live: null, building: null });

export const newSearchIndex = () => new MiniSearch<SearchDocument>({ ...SEARCH_OPTIONS });

/** Install an index built elsewhere (the persisted one, read at start) as the live index. */
export function adoptIndex(live: LiveIndex): void {
  if (!state().live) state().live = live;
}

export function liveIndex(): LiveIndex | null {
  return state().live;
}

/**
 * Resolves once a search on this view answers without building: the live index exists (it is
 * moved to the view's commit by the changed notes at search time). The first build runs here, in
 * slices; every caller awaits the same build.
 */
export async function searchReady(view: PublishedView): Promise<void> {
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
  for (let i = 0; i < view.notes.length; i += SLICE) {
    search.addAll(view.notes.slice(i, i + SLICE).map(searchDocument));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { commit: view.commit, notes: view.byId, search };
}

/** The live index, moved to the view by the notes that differ. */
function indexAt(view: PublishedView): LiveIndex {
  const s = state();
  if (!s.live) {
    // No one awaited searchReady (a script, a test): build here, at once.
    const search = newSearchIndex();
    search.addAll(view.notes.map(searchDocument));
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
  for (const [id, old] of from) {
    const note = to.get(id);
    if (note === old) continue;
    search.remove(searchDocument(old));
    if (note) search.add(searchDocument(note));
    changed++;
  }
  for (const [id, note] of to) {
    if (from.has(id)) continue;
    search.add(searchDocument(note));
    changed++;
  }
  return changed;
}

export function searchNotes(view: PublishedView, q: string, opts: { limit?: number } = {}): SearchHit[] {
  const query = q.trim().slice(0, 500);
  if (!query) return [];
  const { search } = indexAt(view);
  const results = search.search(query, {
    boost: BOOST,
    // Typing narrows: the last word may be unfinished. Long words forgive a typo; IDs and numbers do not.
    prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
    fuzzy: (term) => (term.length >= 6 && !/\d/.test(term) ? 0.2 : false),
    weights: { prefix: 0.5, fuzzy: 0.3 },
  });
  const phrase = normalizePhrase(query);
  const asked = new Set(phrase.split(" ")).size;
  const limit = opts.limit ?? 50;
  const scored = results.flatMap((r) => {
    const note = view.byId.get(String(r.id));
    return note ? [coverageOf(r, note, asked)] : [];
  });
  // When some note matches the whole query, notes that share only a minor part of it are noise.
  const best = scored.reduce((max, h) => Math.max(max, h.coverage), 0);
  const candidates = scored.filter((h) => best < 1 || h.coverage >= 0.25).sort((a, b) => b.base - a.base);
  return topByFinalScore(candidates, phrase, limit).map(({ note, result, score }) => {
    const field = bestField(result);
    return { id: note.id, score, field, passage: passageAround(fieldText(note, field), result.terms), terms: result.terms };
  });
}

export type Scored = { id: string; note: Note; result: SearchResult; coverage: number; base: number };

function coverageOf(result: SearchResult, note: Note, asked: number): Scored {
  // A note that matches every word of the query outranks one that matches a rare word alone.
  const coverage = Math.min(1, result.queryTerms.length / Math.max(1, asked)) ** 2;
  return { id: note.id, note, result, coverage, base: result.score * coverage };
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
  for (const c of candidates) {
    if (top.length >= limit && c.base * (lifts ? EXACT_LIFT : 1) < (top[limit - 1] as { score: number }).score) break;
    const exact = lifts && shortFields(c.note).some((text) => normalizePhrase(text).includes(phrase));
    top.push({ ...c, score: c.base * (exact ? EXACT_LIFT : 1) });
    top.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
    if (top.length > limit) top.length = limit;
  }
  return top;
}

/** The fields the exact-phrase rule reads; cheap ones, so ranking never converts a section. */
function shortFields(note: Note): string[] {
  return [note.title, note.tags.join(" · "), note.summary, note.id, `Phase ${note.phase}`, note.core?.label ?? ""];
}

// The plain text of a returned hit's note, kept while the note object lives (one per blob).
const documents = new WeakMap<Note, SearchDocument>();
function fieldText(note: Note, field: string): string {
  let doc = documents.get(note);
  if (!doc) documents.set(note, (doc = searchDocument(note)));
  return doc[field] ?? "";
}

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
