import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIR_MODE, FILE_MODE, RawTree, Tree, treeEntry, type TreeEntry } from "./tree";

/**
 * Tree edits splice bytes instead of re-encoding entries; they must give exactly the tree git
 * would write: entries in byte order of their UTF-8 names, a folder ordered as if named "name/".
 */

const oidOf = (n: number) => n.toString(16).padStart(40, "0");
const gitKey = (e: TreeEntry) => Buffer.from(e.mode === DIR_MODE ? `${e.name}/` : e.name, "utf8");
const reference = (entries: TreeEntry[]) => Buffer.concat([...entries].sort((a, b) => Buffer.compare(gitKey(a), gitKey(b))).map((e) => e.bytes));

// Names that stress the order: shared prefixes, "-", ".", "/"-adjacent bytes, accents, astral characters.
const name = fc.stringMatching(/^[a-c.\-=_0 ]{1,4}$/).chain((base) => fc.constantFrom(base, `${base}é`, `${base}\u{1D4B3}`, `${base}\uE000`));
const entry = fc.tuple(name, fc.boolean(), fc.nat(1000)).map(([n, dir, x]) => treeEntry(dir ? DIR_MODE : FILE_MODE, n, oidOf(x)));

describe("Tree.edit", () => {
  it("writes the same bytes as sorting every entry from scratch, after any adds, changes and removals", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e.name, maxLength: 30 }),
        fc.array(fc.tuple(name, fc.option(fc.tuple(fc.boolean(), fc.nat(1000)))), { maxLength: 12 }),
        (start, edits) => {
          const base = Tree.of(start);
          expect(base.serialize()).toEqual(reference(start));
          const byName = new Map(start.map((e) => [e.name, e]));
          const changes = new Map<string, TreeEntry | null>();
          for (const [n, next] of edits) changes.set(n, next ? treeEntry(next[0] ? DIR_MODE : FILE_MODE, n, oidOf(next[1])) : null);
          for (const [n, e] of changes) {
            if (e) byName.set(n, e);
            else byName.delete(n);
          }
          const edited = base.edit([...changes].map(([n, e]) => ({ name: n, entry: e })));
          expect(edited.serialize()).toEqual(reference([...byName.values()]));
          expect(edited.entries.map((e) => e.name).sort()).toEqual([...byName.keys()].sort());
          // Parsing the bytes back gives the same entries, and lookups find every one of them.
          const parsed = Tree.parse("test", edited.serialize());
          expect(parsed.entries.map((e) => [e.mode, e.name, e.oid])).toEqual(edited.entries.map((e) => [e.mode, e.name, e.oid]));
          // The bytes-only form (RawTree, what history walks keep) finds the same entries by binary search,
          // also for names with spaces, names that prefix another, and a folder beside a file of the same stem.
          const raw = new RawTree("test", edited.serialize());
          for (const e of byName.values()) {
            expect(parsed.get(e.name)?.oid).toBe(e.oid);
            expect(raw.find(e.name)).toEqual({ mode: e.mode, oid: e.oid });
          }
          for (const [n] of edits) if (!byName.has(n)) expect(raw.find(n)).toBeNull();
          for (const [n] of edits) expect(raw.find(n)).toEqual(parsed.get(n) ? { mode: parsed.get(n)!.mode, oid: parsed.get(n)!.oid } : null);
        },
      ),
      { numRuns: 300 },
    );
  });
});
