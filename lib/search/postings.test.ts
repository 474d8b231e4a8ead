import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Postings } from "./postings";

// A postings list must be a Map from doc to count, only smaller, whatever happens to it.

const pairsOf = (flat: number[]) => Array.from({ length: flat.length >> 1 }, (_, k) => [flat[k * 2]!, flat[k * 2 + 1]!]);

describe("Postings", () => {
  it("is a Map from note to count, in ascending note order, whatever the order of sets, deletes and trims", () => {
    // Notes up to 150, so a list passes the length at which a trim makes it an Int32Array, and
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
        expect(pairsOf(list.toPairs())).toEqual(expected);
        expect(list.size).toBe(model.size);
        for (let note = 0; note <= 221; note++) {
          expect(list.get(note)).toBe(model.get(note));
          expect(list.has(note)).toBe(model.has(note));
        }
        const seen: [number, number][] = [];
        list.forEach((count, note) => seen.push([note, count]));
        expect(seen).toEqual(expected);
        // From a saved index's pairs, in any order: the same list; with an unknown doc or a count of 0, none.
        const shuffled = [...expected].reverse().flat();
        expect(pairsOf(Postings.fromPairs(shuffled, () => true)!.toPairs())).toEqual(expected);
        if (expected.length) {
          expect(Postings.fromPairs(shuffled, (doc) => doc !== expected[0]![0])).toBeNull();
          expect(Postings.fromPairs([...expected.flat(), 999, 0], () => true)).toBeNull();
        }
      }),
      { numRuns: 300 },
    );
  });
});
