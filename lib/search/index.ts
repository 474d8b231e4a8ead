import MiniSearch, { type SearchResult } from "minisearch";
import type { PublishedView } from "@/lib/content/published";
import { SEARCH_FIELDS, searchDocument, type SearchDocument } from "./fields";
import { passageAround } from "./passage";
import { normalizeTerm, tokenize } from "./terms";

/**
 * Full-text search over the published notes: every field, ranked (BM25 with field boosts), with
 * the passage that matched. One index per published commit, built on first use and kept while the
 * commit is current, so a commit on main is searchable on the next request.
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

type Index = { search: MiniSearch<SearchDocument>; docs: Map<string, SearchDocument> };

const FIELDS = SEARCH_FIELDS.map((f) => f.field);
const BOOST: Record<string, number> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.boost]));
const KEEP = 4; // a few recent commits: requests that started on the previous commit still finish cheaply
const indexes = new Map<string, Index>();

function indexFor(view: PublishedView): Index {
  const cached = indexes.get(view.commit);
  if (cached) return cached;
  const docs = new Map(view.notes.map((n) => [n.id, searchDocument(n)]));
  const search = new MiniSearch<SearchDocument>({ fields: FIELDS, idField: "id", tokenize, processTerm: normalizeTerm });
  search.addAll([...docs.values()]);
  const index = { search, docs };
  indexes.set(view.commit, index);
  while (indexes.size > KEEP) indexes.delete(indexes.keys().next().value as string);
  return index;
}

export function searchNotes(view: PublishedView, q: string, opts: { limit?: number } = {}): SearchHit[] {
  const query = q.trim().slice(0, 500);
  if (!query) return [];
  const { search, docs } = indexFor(view);
  const results = search.search(query, {
    boost: BOOST,
    // Typing narrows: the last word may be unfinished. Long words forgive a typo; IDs and numbers do not.
    prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
    fuzzy: (term) => (term.length >= 6 && !/\d/.test(term) ? 0.2 : false),
    weights: { prefix: 0.5, fuzzy: 0.3 },
  });
  const phrase = normalizePhrase(query);
  const asked = new Set(phrase.split(" ")).size;
  const hits = results.map((r) => toHit(r, docs.get(String(r.id)), phrase, asked));
  // When some note matches the whole query, notes that share only a minor part of it are noise.
  const best = Math.max(0, ...hits.map((h) => h.coverage));
  return hits
    .filter((h) => best < 1 || h.coverage >= 0.25)
    .map(({ coverage: _, ...hit }) => hit)
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id))
    .slice(0, opts.limit ?? 50);
}

function toHit(result: SearchResult, doc: SearchDocument | undefined, phrase: string, asked: number): SearchHit & { coverage: number } {
  const terms = result.terms;
  // A note that matches every word of the query outranks one that matches a rare word alone.
  const coverage = Math.min(1, result.queryTerms.length / Math.max(1, asked)) ** 2;
  const field = bestField(result);
  const text = doc?.[field] ?? "";
  // The exact phrase in a title, tag or summary is what a reader means: let it lead.
  const exact = phrase.includes(" ") && doc && ["title", "tags", "summary", "id", "phase", "core"].some((f) => normalizePhrase(doc[f] ?? "").includes(phrase));
  const score = result.score * coverage * (exact ? 1.5 : 1);
  return { id: String(result.id), score, field, passage: passageAround(text, terms), terms, coverage };
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
