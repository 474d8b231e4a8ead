import { describe, expect, it } from "vitest";
import { parseNote, serializeNote } from "@/lib/notes/markdown";
import { noteSchema } from "@/lib/notes/schema";
import { composeNote, fieldsOf, validateNote } from "@/lib/validations/note";
import { affectsProblems, componentMatch, parseAffectsEntry, pathMatch } from "./affects";
import { acceptWrite } from "./accept-write";

const note = (affects: string[]) =>
  noteSchema.parse({
    id: "AFN-900",
    title: "LRU cache eviction",
    summary: "Evict the least recently used entry.",
    status: "draft",
    phase: "6 architecture",
    order: 1,
    affects,
    sections: { decision: "Evict LRU.", invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" },
  });

describe("affects: what a note governs", () => {
  it.each([["**"], ["**/*"], ["*/**"], ["{**,x}"], ["**/**"]])("refuses %s, a glob that matches every path", (glob) => {
    expect(affectsProblems([glob])).toEqual([{ index: 0, message: expect.stringContaining("matches every path") }]);
  });

  it.each([["src/cache/**"], ["engine/metal/*.metal"], ["**/*.ts"], ["src/cache"], ["*"], ["component:search index"]])("accepts %s", (entry) => {
    expect(affectsProblems([entry])).toEqual([]);
  });

  it.each([
    ["src/cache/**", "src/cache/lru.ts", true],
    ["src/cache/**", "src/cachex/lru.ts", false],
    ["src/cache", "src/cache/deep/lru.ts", true],
    ["src/cache/", "src/cache/lru.ts", true],
    ["src/cache/lru.ts", "src/cache/lru.ts", true],
    ["engine/metal/*.metal", "engine/metal/blit.metal", true],
    ["engine/metal/*.metal", "engine/metal/sub/blit.metal", false],
    ["component:cache", "src/cache/lru.ts", false],
  ])("%s governs %s: %s", (entry, path, governs) => {
    expect(pathMatch(parseAffectsEntry(entry), path) !== null).toBe(governs);
  });

  it("ranks an exact file over a literal folder over a glob, and a longer literal glob over a shorter", () => {
    const score = (entry: string) => pathMatch(parseAffectsEntry(entry), "src/cache/lru.ts") ?? -1;
    expect(score("src/cache/lru.ts")).toBeGreaterThan(score("src/cache"));
    expect(score("src/cache")).toBeGreaterThan(score("src/cache/*.ts"));
    expect(score("src/cache/*.ts")).toBeGreaterThan(score("src/**"));
  });

  it("names components case-insensitively", () => {
    expect(componentMatch(parseAffectsEntry("component:Search Index"), "search index")).toBe(true);
    expect(componentMatch(parseAffectsEntry("src/search/**"), "search")).toBe(false);
  });

  it("refuses malformed entries in the schema, at the field", () => {
    for (const bad of ["/src/cache/**", "../x", "!src/**", "src\\cache", "component:", "src/**", "src/**"]) {
      const result = noteSchema.safeParse({ ...note([]), affects: bad === "src/**" ? ["src/**", "src/**"] : [bad] });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.path[0]).toBe("affects");
    }
  });

  it("round-trips through the note file, and a note without affects writes no affects key", () => {
    const governed = note(["src/cache/**", "component:cache"]);
    const file = serializeNote(governed);
    expect(file).toContain("affects:\n  - src/cache/**\n  - component:cache\n");
    expect(parseNote(file)).toEqual({ ok: true, note: governed });
    expect(serializeNote(note([]))).not.toContain("affects");
  });

  it("is refused by the acceptance function and by the editor's check, at the affects field", async () => {
    const after = note(["src/cache/**", "**"]);
    const { allowed, findings } = await acceptWrite({
      kind: "create",
      before: null,
      after,
      actor: { id: "ada", role: "author" },
      context: {
        phases: ["6 architecture"],
        publishedIds: new Set(),
        onMain: null,
        review: { revision: "a".repeat(40), revisionAuthors: ["ada"], verdicts: [] },
      },
    });
    expect(allowed).toBe(false);
    expect(findings).toContainEqual({ rule: "affects", field: "affects", message: expect.stringContaining('"**" matches every path') });
    const checked = validateNote(composeNote(after, { ...fieldsOf(after), affects: ["src/cache/**", " **/* ", ""] }));
    expect(checked).toEqual({ ok: false, problems: [{ field: "affects", message: expect.stringContaining('"**/*" matches every path') }] });
  });
});
