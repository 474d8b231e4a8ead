import MiniSearch from "minisearch";
import { compareIds, type Note } from "@/lib/notes/schema";
import { phraseFields } from "@/lib/search/engine";
import { SEARCH_FIELDS, searchDocument, type SearchDocument } from "@/lib/search/fields";
import { normalizeTerm, tokenize } from "@/lib/search/terms";

/**
 * Tests and bench:search: the search ranking on MiniSearch's public API (`search` with the same
 * field boosts, prefix and typo rules, then the same coverage rule and phrase lift), the path the
 * app took before it owned its index (docs/decisions/search-own-index.md). The app's answer must
 * equal this one (lib/search/score.test.ts); bench:search times the two side by side.
 */

const FIELDS = SEARCH_FIELDS.map((f) => f.field);
const BOOST = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.boost]));
const EXACT_LIFT = 1.5;

export type ReferenceHit = { id: string; score: number; terms: string[] };

export function referenceIndex(notes: readonly Note[]): MiniSearch<SearchDocument> {
  const search = new MiniSearch<SearchDocument>({ fields: FIELDS, idField: "id", tokenize, processTerm: (t) => normalizeTerm(t) });
  search.addAll(notes.map(searchDocument));
  return search;
}

const phraseOf = (s: string) => tokenize(s).map(normalizeTerm).filter(Boolean).join(" ");

export function referenceSearch(search: MiniSearch<SearchDocument>, byId: ReadonlyMap<string, Note>, query: string, limit: number): ReferenceHit[] {
  const results = search.search(query, {
    boost: BOOST,
    prefix: (term, i, terms) => i === terms.length - 1 && term.length >= 3,
    fuzzy: (term) => (term.length >= 6 && !/\d/.test(term) ? 0.2 : false),
    weights: { prefix: 0.5, fuzzy: 0.3 },
  });
  const phrase = phraseOf(query);
  const asked = Math.max(1, new Set(phrase.split(" ")).size);
  const scored = results.map((r) => {
    const coverage = Math.min(1, r.queryTerms.length / asked) ** 2;
    return { r, coverage, base: r.score * coverage };
  });
  const best = scored.reduce((max, h) => Math.max(max, h.coverage), 0);
  const lifts = phrase.includes(" ");
  return scored
    .filter((h) => best < 1 || h.coverage >= 0.25)
    .map(({ r, base }) => {
      const note = byId.get(String(r.id))!;
      const exact = lifts && phraseFields(note).some((text) => text.includes(phrase));
      return { id: String(r.id), score: base * (exact ? EXACT_LIFT : 1), terms: r.terms };
    })
    .sort((a, b) => b.score - a.score || compareIds(a.id, b.id))
    .slice(0, limit);
}
