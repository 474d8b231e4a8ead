import fc from "fast-check";
import MiniSearch from "minisearch";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { seedNotes } from "@/lib/testing/seed";
import { benchNote } from "@/scripts/bench-notes";
import { SEARCH_OPTIONS } from "./engine";
import { SEARCH_FIELDS, searchDocument, type SearchDocument } from "./fields";
import { compact, loadCompact, Postings, trimPostings, type SerializedIndex } from "./postings";
import { scoreQuery } from "./score";
import { normalizeTerm, tokenize } from "./terms";

// A compacted index must be MiniSearch's own, only smaller: the same serialisation, the same
// answers to the last bit of a score, after any adds and removes, and after a save and a load.

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

/** What an index answers: every note's result for each query, and (for the compact one) the flat scorer's. */
function answers(search: MiniSearch<SearchDocument>, query: string) {
  const options = { boost: BOOST, weights: { prefix: 0.5, fuzzy: 0.3 }, prefix: true, fuzzy: 0.2 } as const;
  const terms = tokenize(query)
    .flatMap((t) => normalizeTerm(t) ?? [])
    .map((term) => ({ term, prefix: true, fuzzy: 0.2 as number | false }));
  const scored = scoreQuery(search, terms, { fields: FIELDS, ...options })!;
  const flat = [...scored.docs].map((doc) => scored.resultFor(doc)).sort((a, b) => a.id.localeCompare(b.id));
  return { search: search.search(query, options), flat };
}

// An add (of the note's first or revised text), or a remove of what it holds.
const steps = fc.array(fc.tuple(fc.nat(notes.length - 1), fc.boolean()), { minLength: 1, maxLength: 120 });

function replay(search: MiniSearch<SearchDocument>, plan: [number, boolean][], held = new Map<string, SearchDocument>()) {
  for (const [i, revise] of plan) {
    const doc = (revise ? revised : documents)[i]!;
    const old = held.get(doc.id);
    if (old) {
      search.remove(old);
      held.delete(doc.id);
    } else {
      search.add(doc);
      held.set(doc.id, doc);
    }
  }
  return search;
}

describe("Postings", () => {
  it("is a Map from note to count, in ascending note order, whatever the order of sets, deletes and trims", () => {
    // Notes up to 150, so a list passes the length at which a trim makes it a Uint32Array, and
    // sets and deletes go on in that form (growing it past its room, and in its middle).
    const op = fc.oneof(
      { weight: 6, arbitrary: fc.tuple(fc.constant("set" as const), fc.nat(150), fc.integer({ min: 1, max: 9 })) },
      { weight: 2, arbitrary: fc.tuple(fc.constant("delete" as const), fc.nat(150), fc.constant(0)) },
      { weight: 1, arbitrary: fc.tuple(fc.constant("trim" as const), fc.constant(0), fc.constantFrom(4, 128)) },
      // Seventy notes in a row, from a random one up or down: a list grows past 64 postings by
      // sets alone (appends, or inserts in its middle), where it turns typed.
      { weight: 1, arbitrary: fc.tuple(fc.constant("many" as const), fc.nat(150), fc.constantFrom(1, -1)) },
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 100, maxLength: 400 }), (ops) => {
        const list = new Postings();
        const model = new Map<number, number>();
        for (const [kind, note, count] of ops) {
          if (kind === "set") {
            list.set(note, count);
            model.set(note, count);
          } else if (kind === "delete") expect(list.delete(note)).toBe(model.delete(note));
          else if (kind === "many") {
            for (let k = 0; k < 70; k++) {
              const n = count > 0 ? note + k : note + 70 - k;
              list.set(n, (n % 7) + 1);
              model.set(n, (n % 7) + 1);
            }
          } else list.trim(count);
        }
        const expected = [...model].sort((a, b) => a[0] - b[0]);
        expect([...list]).toEqual(expected);
        expect(list.size).toBe(model.size);
        for (let note = 0; note <= 221; note++) {
          expect(list.get(note)).toBe(model.get(note));
          expect(list.has(note)).toBe(model.has(note));
        }
        const seen: [number, number][] = [];
        list.forEach((count, note) => seen.push([note, count]));
        expect(seen).toEqual(expected);
        expect(Postings.fromObject(Object.fromEntries(model)).size).toBe(model.size);
        expect([...Postings.fromObject(Object.fromEntries(model))]).toEqual(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe("a compacted index", () => {
  it("serialises and answers exactly as MiniSearch's own, through any adds and removes", () => {
    fc.assert(
      fc.property(steps, queries, (plan, query) => {
        const own = replay(new MiniSearch<SearchDocument>({ ...SEARCH_OPTIONS }), plan);
        // Trimmed halfway, as after a build: long lists go on as Uint32Arrays.
        const mine = compact(new MiniSearch<SearchDocument>({ ...SEARCH_OPTIONS }));
        const held = new Map<string, SearchDocument>();
        replay(mine, plan.slice(0, plan.length >> 1), held);
        trimPostings(mine, 4);
        replay(mine, plan.slice(plan.length >> 1), held);
        expect(JSON.stringify(mine)).toBe(JSON.stringify(own));
        expect(answers(mine, query)).toEqual(answers(own, query));
        // No map is left: every list the index made is a Postings.
        for (const [, data] of (mine as unknown as { _index: Iterable<[string, Map<number, unknown>]> })._index) {
          for (const list of data.values()) expect(list).toBeInstanceOf(Postings);
        }
      }),
      { numRuns: 60 },
    );
  });

  it("loads from MiniSearch's JSON as MiniSearch does, and goes on as it would", () => {
    fc.assert(
      fc.property(steps, steps, queries, (before, after, query) => {
        const held = new Map<string, SearchDocument>();
        const json = JSON.parse(JSON.stringify(replay(new MiniSearch<SearchDocument>({ ...SEARCH_OPTIONS }), before, held))) as SerializedIndex;
        const own = MiniSearch.loadJS<SearchDocument>(json, { ...SEARCH_OPTIONS });
        const mine = loadCompact<SearchDocument>(json, { ...SEARCH_OPTIONS });
        trimPostings(mine, 4);
        expect(JSON.stringify(mine)).toBe(JSON.stringify(own));
        expect(answers(mine, query)).toEqual(answers(own, query));
        // Then more adds and removes, from what the saved index held.
        replay(own, after, new Map(held));
        replay(mine, after, new Map(held));
        expect(JSON.stringify(mine)).toBe(JSON.stringify(own));
        expect(answers(mine, query)).toEqual(answers(own, query));
      }),
      { numRuns: 40 },
    );
  });
});
