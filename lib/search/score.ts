import type { FieldPostings, TermIndex } from "./term-index";

/**
 * A query scored on the search index (./term-index.ts) into flat arrays, one slot per doc: the OR
 * of the query's terms, each with its prefix and typo expansions, BM25 per field with the fields'
 * boosts, summed over the terms and multiplied by how many of the query's terms a note matched
 * (the scoring MiniSearch's `search` did, which the index replaced; score.test.ts holds the two
 * equal on random queries). Each posting costs a few array writes; a match's terms and fields
 * (`resultFor`) are read for the returned notes only.
 */

export type QueryTerm = { term: string; prefix: boolean; fuzzy: number | false };
export type ScoreOptions = {
  fields: readonly string[];
  boost: Record<string, number>;
  weights: { prefix: number; fuzzy: number };
};

// BM25's k, b and d (MiniSearch's defaults, kept), and the most edits a typo may be.
const K = 1.2;
const B = 0.7;
const D = 0.5;
const MAX_FUZZY = 6;
// Matched query terms are kept as bits of one 32-bit word per note: terms past the 31st distinct
// one of a query are not searched.
const MAX_TERMS = 31;

/** One derived term (the query term itself, or a prefix or fuzzy expansion of it) and its weight. */
type Derived = { term: string; weight: number; data: FieldPostings };
/** A query term with the index terms it reaches: exact, prefixes, typos. */
type Spec = { source: string; bit: number; derived: Derived[] };

export type ScoredQuery = {
  /** The docs that matched, in no particular order. */
  docs: Int32Array;
  /** The score (sum × number of matched query terms), indexed by doc. */
  score: Float64Array;
  /** How many distinct query terms each note matched, indexed by doc. */
  matched: Uint8Array;
  /** The note id of a doc. */
  idOf: (doc: number) => string;
  /** Which terms of the index a note matched, from which query terms, in which fields; built on demand. */
  resultFor: (doc: number) => Match;
};

/** What a note matched: the index terms, the query terms they came from, the fields of each term. */
export type Match = { id: string; score: number; terms: string[]; queryTerms: string[]; match: Record<string, string[]> };

// BM25's length term of each note in each field, `K * (1 - B + B * length / average)`, one typed
// array per field; computed again when the index changed (per commit).
const norms = new WeakMap<TermIndex, { version: number; byField: Float64Array[] }>();

function lengthNorms(index: TermIndex): Float64Array[] {
  const cached = norms.get(index);
  if (cached && cached.version === index.version) return cached.byField;
  const n = index.docLimit;
  const byField = index.fields.map((_, f) => {
    const norm = new Float64Array(n);
    const average = index.averageLength(f);
    for (let doc = 0; doc < n; doc++) norm[doc] = K * (1 - B + (B * index.fieldLength(f, doc)) / average);
    return norm;
  });
  norms.set(index, { version: index.version, byField });
  return byField;
}

export function scoreQuery(index: TermIndex, query: readonly QueryTerm[], options: ScoreOptions): ScoredQuery {
  const sources = [...new Set(query.map((t) => t.term))].slice(0, MAX_TERMS);
  const terms = query.filter((t) => sources.includes(t.term));
  const fieldIds = options.fields.map((f) => index.fields.indexOf(f));
  const byField = lengthNorms(index);
  const n = index.docLimit;
  const documentCount = index.documentCount;
  const total = new Float64Array(n);
  const docs = new Int32Array(n);
  const { spec, mask, seen, touched } = scratchFor(n);
  let docCount = 0;

  const specs = terms.map((t) => expand(index, t, sources.indexOf(t.term), options.weights));
  for (const { bit, derived } of specs) {
    let touchedCount = 0;
    for (const { weight, data } of derived) {
      for (let i = 0; i < options.fields.length; i++) {
        const fieldId = fieldIds[i]!;
        const freqs = fieldId < 0 ? undefined : data.get(fieldId);
        if (!freqs) continue;
        const field = options.fields[i]!;
        const fieldBoost = options.boost[field] || 1;
        const normOf = byField[fieldId]!;
        const matching = freqs.size;
        const idf = Math.log(1 + (documentCount - matching + 0.5) / (matching + 0.5));
        const factor = weight * fieldBoost;
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
    idOf: (doc) => index.idOf(doc) ?? "",
    resultFor: (doc) => resultFor(doc, specs, options.fields, fieldIds, score[doc]!, index.idOf(doc) ?? ""),
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

function expand(index: TermIndex, query: QueryTerm, bit: number, weights: ScoreOptions["weights"]): Spec {
  const derived: Derived[] = [];
  const exact = index.postings(query.term);
  if (exact) derived.push({ term: query.term, weight: 1, data: exact });
  let typos: Map<string, [FieldPostings, number]> | undefined;
  if (query.fuzzy) {
    const maxDistance = query.fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(query.term.length * query.fuzzy)) : query.fuzzy;
    if (maxDistance) typos = index.withinDistance(query.term, maxDistance);
  }
  // A longer term counts less the more it adds; a term reached both ways counts as a prefix.
  if (query.prefix) {
    for (const [term, data] of index.withPrefix(query.term)) {
      const distance = term.length - query.term.length;
      if (!distance) continue;
      typos?.delete(term);
      derived.push({ term, weight: (weights.prefix * term.length) / (term.length + 0.3 * distance), data });
    }
  }
  if (typos) {
    for (const [term, [data, distance]] of typos) {
      if (!distance) continue;
      derived.push({ term, weight: (weights.fuzzy * term.length) / (term.length + distance), data });
    }
  }
  return { source: query.term, bit, derived };
}

/** What one note matched, read from the same expansions. */
function resultFor(doc: number, specs: Spec[], fields: readonly string[], fieldIds: number[], score: number, id: string): Match {
  const match: Record<string, string[]> = {};
  const queryTerms: string[] = [];
  for (const { source, derived } of specs) {
    for (const { term, data } of derived) {
      const found: string[] = [];
      for (let i = 0; i < fields.length; i++) if (fieldIds[i]! >= 0 && data.get(fieldIds[i]!)?.has(doc)) found.push(fields[i]!);
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
