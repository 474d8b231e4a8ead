import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Lru } from "./lru";

/**
 * The Lru against the plainest model of what it promises: entries in order of last use, the
 * oldest dropped while the total weight is over the bound, the newest always kept.
 */
class Model {
  entries: [string, number][] = [];
  constructor(private readonly max: number) {}
  get(key: string) {
    const i = this.entries.findIndex(([k]) => k === key);
    if (i < 0) return undefined;
    const [entry] = this.entries.splice(i, 1);
    this.entries.push(entry!);
    return entry![1];
  }
  set(key: string, value: number) {
    this.entries = this.entries.filter(([k]) => k !== key);
    this.entries.push([key, value]);
    const weight = () => this.entries.reduce((sum, [, v]) => sum + Math.max(1, v), 0);
    while (weight() > this.max && this.entries.length > 1) this.entries.shift();
  }
}

const op = fc.oneof(
  fc.record({ t: fc.constant("set" as const), key: fc.constantFrom("a", "b", "c", "d", "e", "f", "g"), weight: fc.integer({ min: 0, max: 12 }) }),
  fc.record({ t: fc.constant("get" as const), key: fc.constantFrom("a", "b", "c", "d", "e", "f", "g") }),
  fc.record({ t: fc.constant("clear" as const) }),
);

describe("Lru", () => {
  it("keeps the same entries as a model that scans its whole list, after any sequence of sets, gets and clears", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.array(op, { maxLength: 200 }), (max, ops) => {
        const lru = new Lru<string, number>(max, (v) => v);
        let model = new Model(max);
        for (const o of ops) {
          if (o.t === "set") {
            lru.set(o.key, o.weight);
            model.set(o.key, o.weight);
          } else if (o.t === "get") expect(lru.get(o.key)).toBe(model.get(o.key));
          else {
            lru.clear();
            model = new Model(max);
          }
          expect(lru.size).toBe(model.entries.length);
        }
        // What is left, oldest first: each get moves its entry to the newest end in both.
        for (const [key, value] of [...model.entries]) expect(lru.get(key)).toBe(value);
      }),
      { numRuns: 300 },
    );
  });
});
