import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { seedNotes } from "@/lib/testing/seed";
import { benchNote } from "@/scripts/bench-notes";
import { newSearchIndex } from "./engine";
import { SEARCH_FIELDS, searchDocument, type SearchDocument } from "./fields";
import { scoreQuery } from "./score";
import { TermIndex } from "./term-index";
import { normalizeTerm, tokenize } from "./terms";

// The index moved by adds and removes must answer as a fresh build of the notes it holds, to the
// last bit of a score, and so must the same index saved and loaded back.

const parse = (text: string): Note => {
  const parsed = parseNote(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
};
const notes = [...seedNotes(), ...Array.from({ length: 60 }, (_, i) => parse(benchNote(21 + i, `Generated note ${21 + i}.`)))];
const documents = notes.map(searchDocument);
// A note's text as another revision: the same id, other words (a changed note is removed, then added).
const revised = notes.map((n, i) => ({ ...searchDocument(n), summary: `Revised ${i} attention checkpoint ${n.summary.split(" ").reverse().join(" ")}` }));

const FIELDS = SEARCH_FIELDS.map((f) => f.field);
const BOOST = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.boost]));
const WORDS = "sparse attention spars atention checkpoint chekpoint transactional state cache revised AFN-016 016 phase 5 the zyzzogeton".split(" ");
const queries = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(" "));

/** Every matching note's score and match for a query, by note id. */
function answers(index: TermIndex, query: string) {
  const terms = tokenize(query)
    .flatMap((t) => normalizeTerm(t) ?? [])
    .map((term) => ({ term, prefix: true, fuzzy: 0.2 as number | false }));
  const scored = scoreQuery(index, terms, { fields: FIELDS, boost: BOOST, weights: { prefix: 0.5, fuzzy: 0.3 } });
  return [...scored.docs].map((doc) => scored.resultFor(doc)).sort((a, b) => a.id.localeCompare(b.id));
}

// An add (of the note's first or revised text), or a remove of what it holds.
const steps = fc.array(fc.tuple(fc.nat(notes.length - 1), fc.boolean()), { minLength: 1, maxLength: 120 });

function replay(index: TermIndex, plan: [number, boolean][], held = new Map<string, SearchDocument>()) {
  for (const [i, revise] of plan) {
    const doc = (revise ? revised : documents)[i]!;
    const old = held.get(doc.id);
    if (old) {
      index.remove(old);
      held.delete(doc.id);
    } else {
      index.add(doc);
      held.set(doc.id, doc);
    }
  }
  return held;
}

function fresh(held: Map<string, SearchDocument>): TermIndex {
  const index = newSearchIndex();
  for (const doc of held.values()) index.add(doc);
  return index;
}

const roundTrip = (index: TermIndex) => TermIndex.fromData(JSON.parse([...index.serialize()].join("")), FIELDS);

describe("the term index", () => {
  it("answers as a fresh build of the notes it holds, through any adds and removes, trims, saves and loads", () => {
    fc.assert(
      fc.property(steps, steps, queries, (before, after, query) => {
        const index = newSearchIndex();
        const held = replay(index, before);
        index.trim();
        expect(index.documentCount).toBe(held.size);
        expect(answers(index, query)).toEqual(answers(fresh(held), query));
        const loaded = roundTrip(index);
        expect(answers(loaded, query)).toEqual(answers(index, query));
        // Then more adds and removes, on the loaded index and the one that was saved alike.
        replay(index, after, new Map(held));
        const heldAfter = replay(loaded, after, new Map(held));
        expect(answers(loaded, query)).toEqual(answers(index, query));
        expect(answers(loaded, query)).toEqual(answers(fresh(heldAfter), query));
        expect(loaded.termCount).toBe(fresh(heldAfter).termCount);
      }),
      { numRuns: 60 },
    );
  });

  it("finds terms by prefix and by edit distance, and forgets a term no note holds any more", () => {
    const index = newSearchIndex();
    const doc = (id: string, title: string) => ({ ...searchDocument(notes[0]!), id, title, summary: "", related: "" });
    index.add(doc("X-1", "quasicrystal quasar quartz"));
    index.add(doc("X-2", "quasicrystals"));
    expect([...index.withPrefix("quas")].map(([term]) => term)).toEqual(["quasar", "quasicrystal", "quasicrystals"]);
    expect([...index.withinDistance("quasicrystel", 2)].map(([term, [, distance]]) => [term, distance])).toEqual([
      ["quasicrystal", 1],
      ["quasicrystals", 2],
    ]);
    index.remove(doc("X-2", "quasicrystals"));
    expect([...index.withPrefix("quasicrystal")].map(([term]) => term)).toEqual(["quasicrystal"]);
    expect(index.postings("quasicrystals")).toBeUndefined();
    expect(() => index.add(doc("X-1", "again"))).toThrow(/X-1 is already indexed/);
    expect(() => index.remove(doc("X-9", "never"))).toThrow(/X-9 is not indexed/);
  });

  it("finds by edit distance exactly the terms a plain Levenshtein distance finds, with that distance", () => {
    const levenshtein = (a: string, b: string) => {
      let row = Array.from({ length: b.length + 1 }, (_, j) => j);
      for (let i = 1; i <= a.length; i++) {
        const next = [i];
        for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
        row = next;
      }
      return row[b.length]!;
    };
    // Few letters, so terms share prefixes and lie within a few edits of each other.
    const word = fc.string({ unit: fc.constantFrom("a", "b", "c", "d"), minLength: 1, maxLength: 9 });
    fc.assert(
      fc.property(fc.uniqueArray(word, { minLength: 1, maxLength: 60 }), word, fc.integer({ min: 1, max: 3 }), (terms, query, maxDistance) => {
        const index = newSearchIndex();
        index.add({ ...searchDocument(notes[0]!), id: "X-1", title: terms.join(" "), summary: "", related: "" });
        const held = [...index.withPrefix("")].map(([term]) => term);
        const expected = held.map((term) => [term, levenshtein(query, term)] as const).filter(([, distance]) => distance <= maxDistance);
        const found = [...index.withinDistance(query, maxDistance)].map(([term, [, distance]]) => [term, distance]);
        expect(found.sort()).toEqual(expected.sort());
      }),
      { numRuns: 300 },
    );
  });

  it("refuses saved data that is not an index of these fields", () => {
    const index = newSearchIndex();
    index.add(documents[0]!);
    const data = JSON.parse([...index.serialize()].join(""));
    expect(() => TermIndex.fromData({ ...data, fields: ["title"] }, FIELDS)).toThrow(/other fields/);
    expect(() => TermIndex.fromData({ ...data, ids: [null] }, FIELDS)).toThrow(/postings/);
    expect(() => TermIndex.fromData({ ...data, lengths: [] }, FIELDS)).toThrow(/lengths/);
    expect(() => TermIndex.fromData(null, FIELDS)).toThrow();
  });
});
