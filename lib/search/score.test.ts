import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { referenceIndex, referenceSearch } from "@/lib/testing/minisearch-reference";
import { benchNote } from "@/scripts/bench-notes";
import { seedNotes, viewOf } from "@/lib/testing/seed";
import { SEARCH_FIELDS } from "./fields";
import { liveIndex, newSearchIndex, searchNotes } from "./index";
import { searchDocument } from "./fields";
import { scoreQuery } from "./score";
import { normalizeTerm, tokenize } from "./terms";

// The index and its scorer must give the answer MiniSearch's public `search` gave when the app
// used it: the same notes, the same scores (to 12 digits: the average field length is summed
// another way), the same matched terms and fields. Compared here on the seed plus generated notes
// (whose words repeat across nearly every note, as at 10,000), for random queries with typos,
// prefixes, IDs and numbers.

const parse = (text: string, where: string): Note => {
  const parsed = parseNote(text);
  if (!parsed.ok) throw new Error(`${where}: ${JSON.stringify(parsed.errors)}`);
  return parsed.note;
};
const generated = Array.from({ length: 300 }, (_, i) => parse(benchNote(21 + i, `Generated note ${21 + i}.`), `bench ${i}`));
const notes = [...seedNotes(), ...generated];
const view = viewOf(notes, "f".repeat(40));

const FIELDS = SEARCH_FIELDS.map((f) => f.field);
const BOOST = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.boost]));
const WORDS = [
  ..."sparse attention mask transactional state cache checkpoint boundary storage admission prefill replay evidence metal routing expert tokenizer".split(" "),
  ..."transactionl atention chekpoint tokeniz spars cach bound AFN-016 AFN-00042 016 phase 5 2,051 query-by-key the of GGUF Qwen4Exp zyzzogeton".split(" "),
];
const queries = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(" "));
const reference = referenceIndex(notes);
const sorted = (xs: string[]) => [...xs].sort();

describe("the scorer", () => {
  it("scores every matching note as MiniSearch.search does", () => {
    const index = newSearchIndex();
    for (const note of notes) index.add(searchDocument(note));
    fc.assert(
      fc.property(queries, fc.boolean(), fc.boolean(), (query, prefix, fuzzy) => {
        const options = { boost: BOOST, weights: { prefix: 0.5, fuzzy: 0.3 }, prefix, fuzzy: fuzzy ? 0.2 : false } as const;
        const expected = reference.search(query, options);
        const terms = tokenize(query)
          .flatMap((t) => normalizeTerm(t) ?? [])
          .map((term) => ({ term, prefix, fuzzy: (fuzzy ? 0.2 : false) as number | false }));
        const got = scoreQuery(index, terms, { fields: FIELDS, ...options });
        const byId = new Map([...got.docs].map((doc) => [got.idOf(doc), got.resultFor(doc)]));
        expect(byId.size).toBe(expected.length);
        for (const r of expected) {
          const mine = byId.get(String(r.id))!;
          expect(mine.score).toBeCloseTo(r.score, 9);
          expect(sorted(mine.terms)).toEqual(sorted(r.terms));
          expect(sorted(mine.queryTerms)).toEqual(sorted(r.queryTerms));
          for (const term of r.terms) expect(sorted(mine.match[term]!)).toEqual(sorted(r.match[term]!));
        }
      }),
      { numRuns: 80 },
    );
  });

  it("gives searchNotes the ranking it gave on MiniSearch.search, at every limit", async () => {
    await fc.assert(
      fc.asyncProperty(queries, fc.integer({ min: 1, max: 50 }), async (query, limit) => {
        const got = await searchNotes(view, query, { limit });
        const expected = referenceSearch(reference, view.byId, query, limit);
        expect(got.map((h) => h.id)).toEqual(expected.map((h) => h.id));
        got.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 9));
        got.forEach((hit, i) => expect(sorted(hit.terms)).toEqual(sorted(expected[i]!.terms)));
      }),
      { numRuns: 80 },
    );
    expect(liveIndex()?.commit).toBe(view.commit);
  });
});
