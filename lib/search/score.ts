import type MiniSearch from "minisearch";
import type { SearchResult } from "minisearch";

/**
 * MiniSearch's own query (OR of the terms, BM25 per field with boosts, prefix and fuzzy
 * expansion), scored into flat arrays instead of one result object per matching note.
 *
 * Why: the bench archive's words occur in nearly every note, so a query matches ~10,000 notes,
 * and `MiniSearch.search` builds a `{score, terms, match}` object (and a `Map` entry, and a copy
 * for the answer) per matching note and field before we keep 10 of them: 150–500 ms a query. Here
 * each posting costs a few array writes; the `SearchResult` objects are built for the notes that
 * are returned (`resultFor`). The scores are MiniSearch's to the last bit: the same formula, the
 * same order of additions (`score.test.ts` holds the two equal on random queries).
 *
 * It reads MiniSearch's index structures, which are private in its types (pinned by version in
 * `INTERNALS_VERSION`): `scoreQuery` answers `null` when they are not as expected, and the caller
 * falls back to `MiniSearch.search`.
 */

// A term's postings per field: `Postings` (./postings.ts), or MiniSearch's own maps.
type PostingList = { readonly size: number; has(note: number): boolean; forEach(fn: (count: number, note: number) => void): void };
type FieldTermData = Map<number, PostingList>;
type Radix = {
  get(term: string): FieldTermData | undefined;
  atPrefix(prefix: string): Iterable<[string, FieldTermData]>;
  fuzzyGet(term: string, maxDistance: number): Map<string, [FieldTermData, number]>;
};
type Internals = {
  _index: Radix;
  _documentCount: number;
  _nextId: number;
  _dirtCount: number;
  _fieldIds: Record<string, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentIds: Map<number, string>;
};

export const INTERNALS_VERSION = "7.2.0";

export type QueryTerm = { term: string; prefix: boolean; fuzzy: number | false };
export type ScoreOptions = {
  fields: readonly string[];
  boost: Record<string, number>;
  weights: { prefix: number; fuzzy: number };
};

// MiniSearch's defaults (bm25 k, b, d and maxFuzzy), which the app does not change.
const K = 1.2;
const B = 0.7;
const D = 0.5;
const MAX_FUZZY = 6;
// Matched query terms are kept as bits of one 32-bit word per note.
const MAX_TERMS = 31;

/** One derived term (the query term itself, or a prefix or fuzzy expansion of it) and its weight. */
type Derived = { term: string; weight: number; data: FieldTermData };
/** A query term with the index terms it reaches, in MiniSearch's order: exact, prefixes, fuzzy. */
type Spec = { source: string; bit: number; derived: Derived[] };

export type ScoredQuery = {
  /** Short document ids that matched, in no particular order. */
  docs: Int32Array;
  /** MiniSearch's final score (sum × number of matched query terms), indexed by short id. */
  score: Float64Array;
  /** How many distinct query terms each note matched, indexed by short id. */
  matched: Uint8Array;
  /** The external id (the note id) of a short id. */
  idOf: (doc: number) => string;
  /** The `SearchResult` MiniSearch would give for this note (terms, queryTerms, match), built on demand. */
  resultFor: (doc: number) => SearchResult;
};

// BM25's length term of each note in each field, `K * (1 - B + B * length / average)` exactly as
// MiniSearch computes it, one typed array per field; recomputed when the index changed (per commit).
const norms = new WeakMap<object, { stamp: string; byField: Float64Array[] }>();

function lengthNorms(index: Internals, fieldCount: number): Float64Array[] {
  const stamp = `${index._nextId}:${index._documentCount}`;
  const cached = norms.get(index);
  if (cached && cached.stamp === stamp) return cached.byField;
  const byField = Array.from({ length: fieldCount }, () => new Float64Array(index._nextId));
  for (const [doc, perField] of index._fieldLength) {
    for (let f = 0; f < fieldCount; f++) byField[f]![doc] = K * (1 - B + (B * perField[f]!) / index._avgFieldLength[f]!);
  }
  norms.set(index, { stamp, byField });
  return byField;
}

export function scoreQuery(search: object, terms: readonly QueryTerm[], options: ScoreOptions): ScoredQuery | null {
  const index = search as Internals;
  if (!index._index || !(index._fieldLength instanceof Map) || index._dirtCount !== 0) return null;
  const sources = [...new Set(terms.map((t) => t.term))];
  if (sources.length > MAX_TERMS) return null;

  const fieldIds = options.fields.map((f) => index._fieldIds[f] ?? -1);
  const fieldCount = Object.keys(index._fieldIds).length;
  const byField = lengthNorms(index, fieldCount);
  const n = index._nextId;
  const total = new Float64Array(n);
  const docs = new Int32Array(n);
  const { spec, mask, seen, touched } = scratchFor(n);
  let docCount = 0;

  const specs = terms.map((t) => expand(index._index, t, sources.indexOf(t.term), options.weights));
  for (const { bit, derived } of specs) {
    let touchedCount = 0;
    for (const { weight, data } of derived) {
      for (let i = 0; i < options.fields.length; i++) {
        const fieldId = fieldIds[i]!;
        const freqs = data.get(fieldId);
        if (!freqs) continue;
        const field = options.fields[i]!;
        const fieldBoost = options.boost[field] || 1;
        const normOf = byField[fieldId]!;
        const matching = freqs.size;
        const idf = Math.log(1 + (index._documentCount - matching + 0.5) / (matching + 0.5));
        // MiniSearch multiplies termWeight * termBoost * fieldBoost * docBoost * rawScore, in that order.
        const factor = weight * 1 * fieldBoost * 1;
        // forEach, not for…of: no [key, value] pair per posting.
        freqs.forEach((tf, doc) => {
          const weighted = factor * (idf * (D + (tf * (K + 1)) / (tf + normOf[doc]!)));
          if (seen[doc] === 0) {
            seen[doc] = 1;
            touched[touchedCount++] = doc;
            spec[doc] = weighted;
          } else spec[doc] = spec[doc]! + weighted;
        });
      }
    }
    for (let i = 0; i < touchedCount; i++) {
      const doc = touched[i]!;
      if (mask[doc] === 0) docs[docCount++] = doc;
      total[doc] = total[doc]! + spec[doc]!;
      mask[doc] = mask[doc]! | (1 << bit);
      seen[doc] = 0;
    }
  }

  const matched = new Uint8Array(n);
  const score = total;
  for (let i = 0; i < docCount; i++) {
    const doc = docs[i]!;
    const count = popcount(mask[doc]!);
    mask[doc] = 0;
    matched[doc] = count;
    score[doc] = total[doc]! * count;
  }
  return {
    docs: docs.subarray(0, docCount),
    score,
    matched,
    idOf: (doc) => index._documentIds.get(doc) ?? "",
    resultFor: (doc) => resultFor(doc, specs, options.fields, fieldIds, score[doc]!, index._documentIds.get(doc) ?? ""),
  };
}

// Working arrays of a query, reused (a query runs start to end without yielding); each is left
// zeroed where it was written. Fresh ones per query were most of the garbage a search made.
let scratch = { spec: new Float64Array(0), mask: new Uint32Array(0), seen: new Uint8Array(0), touched: new Int32Array(0) };
function scratchFor(n: number) {
  if (scratch.spec.length < n) {
    const size = Math.ceil(n * 1.25);
    scratch = { spec: new Float64Array(size), mask: new Uint32Array(size), seen: new Uint8Array(size), touched: new Int32Array(size) };
  }
  return scratch;
}

function expand(radix: Radix, query: QueryTerm, bit: number, weights: ScoreOptions["weights"]): Spec {
  const derived: Derived[] = [];
  const exact = radix.get(query.term);
  if (exact) derived.push({ term: query.term, weight: 1, data: exact });
  let fuzzyMatches: Map<string, [FieldTermData, number]> | undefined;
  if (query.fuzzy) {
    const maxDistance = query.fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(query.term.length * query.fuzzy)) : query.fuzzy;
    if (maxDistance) fuzzyMatches = radix.fuzzyGet(query.term, maxDistance);
  }
  if (query.prefix) {
    for (const [term, data] of radix.atPrefix(query.term)) {
      const distance = term.length - query.term.length;
      if (!distance) continue;
      fuzzyMatches?.delete(term);
      derived.push({ term, weight: (weights.prefix * term.length) / (term.length + 0.3 * distance), data });
    }
  }
  if (fuzzyMatches) {
    for (const [term, [data, distance]] of fuzzyMatches) {
      if (!distance) continue;
      derived.push({ term, weight: (weights.fuzzy * term.length) / (term.length + distance), data });
    }
  }
  return { source: query.term, bit, derived };
}

/** The result object MiniSearch builds for one note, rebuilt from the same walk (same key order). */
function resultFor(doc: number, specs: Spec[], fields: readonly string[], fieldIds: number[], score: number, id: string): SearchResult {
  const match: Record<string, string[]> = {};
  const queryTerms: string[] = [];
  for (const { source, derived } of specs) {
    for (const { term, data } of derived) {
      const found: string[] = [];
      for (let i = 0; i < fields.length; i++) if (data.get(fieldIds[i]!)?.has(doc)) found.push(fields[i]!);
      if (!found.length) continue;
      match[term] = found;
      if (!queryTerms.includes(source)) queryTerms.push(source);
    }
  }
  return { id, score, terms: Object.keys(match), queryTerms, match };
}

function popcount(x: number): number {
  let count = 0;
  for (let v = x; v; v &= v - 1) count++;
  return count;
}
