import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { tempDir } from "@/lib/store/testing";
import { seedNotes } from "@/lib/testing/seed";
import { benchNote } from "@/scripts/bench-notes";
import { newSearchIndex, rankQuery, type SearchNote } from "./engine";
import { searchDocument } from "./fields";
import { loadIndex, saveIndex } from "./saved-index";

const folder = tempDir("saved-index");
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

const parse = (text: string): Note => {
  const parsed = parseNote(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
};

describe("the saved search index", () => {
  it("holds the index after notes were added and removed, and loads back one that answers the same", () => {
    const notes = [...seedNotes(), ...Array.from({ length: 40 }, (_, i) => parse(benchNote(21 + i, `Generated note ${21 + i}.`)))];
    const search = newSearchIndex();
    for (const note of notes) search.add(searchDocument(note));
    for (const note of notes.slice(5, 15)) search.remove(searchDocument(note));
    const kept = [...notes.slice(0, 5), ...notes.slice(15)];
    const file = path.join(folder, "a", "search-index.json");
    const commit = "c".repeat(40);
    saveIndex(file, { commit, notes: kept as SearchNote[], search });

    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(saved.index).toEqual(JSON.parse([...search.serialize()].join("")));
    expect(saved.notes.map((n: SearchNote) => n.id)).toEqual(kept.map((n) => n.id));
    // Only the short fields ranking reads are kept of a note, not its sections.
    expect(Object.keys(saved.notes[0]).sort()).toEqual(["core", "id", "phase", "summary", "tags", "title"].filter((k) => k in saved.notes[0]).sort());
    expect(saved.notes[0].sections).toBeUndefined();

    const loaded = loadIndex(file)!;
    expect(loaded.commit).toBe(commit);
    expect(loaded.search.documentCount).toBe(kept.length);
    const view = { commit, byId: new Map(kept.map((n) => [n.id, n as SearchNote])) };
    for (const query of ["sparse attention", "checkpoint", "AFN-016", "chekpoint tokeniz"]) {
      expect(rankQuery(view, loaded.search, query, 20)).toEqual(rankQuery(view, search, query, 20));
    }
    // No temporary file is left beside it.
    expect(fs.readdirSync(path.dirname(file))).toEqual(["search-index.json"]);
  });

  it("is not loaded when the file is missing, cut short, of another format, or its notes and index disagree", () => {
    const search = newSearchIndex();
    const notes = seedNotes();
    for (const note of notes) search.add(searchDocument(note));
    const file = path.join(folder, "b", "search-index.json");
    expect(loadIndex(file)).toBeNull();
    saveIndex(file, { commit: "d".repeat(40), notes, search });
    const text = fs.readFileSync(file, "utf8");
    expect(loadIndex(file)).not.toBeNull();
    fs.writeFileSync(file, text.slice(0, text.length - 10));
    expect(loadIndex(file)).toBeNull();
    fs.writeFileSync(file, text.replace('"format":2', '"format":99'));
    expect(loadIndex(file)).toBeNull();
    saveIndex(file, { commit: "d".repeat(40), notes: notes.slice(1), search });
    expect(loadIndex(file)).toBeNull();
  });
});

describe("a failed save", () => {
  it("reports its own error and leaves no temporary file", () => {
    const search = newSearchIndex();
    for (const note of seedNotes()) search.add(searchDocument(note));
    // A non-empty folder where the file should go: the rename fails.
    const file = path.join(folder, "c", "search-index.json");
    fs.mkdirSync(path.join(file, "inside"), { recursive: true });
    let error: NodeJS.ErrnoException | null = null;
    try {
      saveIndex(file, { commit: "e".repeat(40), notes: seedNotes(), search });
    } catch (e) {
      error = e as NodeJS.ErrnoException;
    }
    expect(error?.syscall).toBe("rename");
    expect(fs.readdirSync(path.dirname(file))).toEqual(["search-index.json"]);
  });
});
