import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { formatErrors, parseNote, serializeNote } from "@/lib/notes/markdown";
import { STATUS_LABEL, type Note, type Status } from "@/lib/notes/schema";
import { parseSeedIndex } from "./seed-index";

// The archive's notes must say exactly what the public index they came from says of them.
const NOTES_DIR = fileURLToPath(new URL("../../content/notes/", import.meta.url));
const seed = parseSeedIndex(readFileSync(new URL("./fixtures/seed-index.txt", import.meta.url), "utf8"));

/** The seed's status words, as the note files spell them. */
const SEED_STATUS: Record<string, Status> = {
  "verified checkpoint": "verified-checkpoint",
  "verified structural decision": "verified-structural",
  hypothesis: "hypothesis",
};

const files = readdirSync(NOTES_DIR)
  .filter((f) => f.endsWith(".md"))
  .sort()
  .map((name) => ({ name, source: readFileSync(NOTES_DIR + name, "utf8") }));

const parsed = files.map((f) => ({ ...f, result: parseNote(f.source) }));
const notes: Note[] = parsed.flatMap((p) => (p.result.ok ? [p.result.note] : []));
const byId = new Map(notes.map((n) => [n.id, n]));

describe("the seed index fixture", () => {
  it("lists 21 records and 4 core decisions, agreeing with its own counts", () => {
    expect(seed.records).toHaveLength(21);
    expect(seed.records).toHaveLength(seed.noteCount);
    expect(seed.records).toHaveLength(seed.recordCount);
    expect(seed.core.map((c) => c.rank)).toEqual([1, 2, 3, 4]);
  });
});

describe("content/notes against the seed", () => {
  it("has note files that all parse without errors", () => {
    const errors = parsed.flatMap((p) => (p.result.ok ? [] : [formatErrors(`content/notes/${p.name}`, p.result.errors)]));
    expect(errors).toEqual([]);
  });

  it("holds exactly one file per seed record, named after its note", () => {
    expect(files).toHaveLength(21);
    expect(files.map((f) => f.name)).toEqual(notes.map((n) => `${n.id}.md`));
    expect([...byId.keys()].sort()).toEqual(seed.records.map((r) => r.id).sort());
  });

  it.each(seed.records)("$id says what the seed says: title, summary, status, phase, tags", (record) => {
    const note = byId.get(record.id);
    expect(note, `no note file for ${record.id}`).toBeDefined();
    if (!note) return;
    expect(note.title).toBe(record.title);
    expect(note.summary).toBe(record.summary);
    expect(note.status).toBe(SEED_STATUS[record.status]);
    // The public view prints the status label; it must read as the seed does.
    expect(STATUS_LABEL[note.status]).toBe(record.status);
    // The file stores the phase value; the page prints it after the word "Phase".
    expect(`Phase ${note.phase}`).toBe(record.phase);
    expect(note.tags).toEqual(record.tags);
  });

  it("sorted by order, highest first, lists the notes in the seed's order", () => {
    const orders = notes.map((n) => n.order);
    expect(new Set(orders).size, "two notes share an order").toBe(orders.length);
    const listed = [...notes].sort((a, b) => b.order - a.order).map((n) => n.id);
    expect(listed).toEqual(seed.records.map((r) => r.id));
  });

  it("marks exactly the seed's four core decisions, with its ranks and labels", () => {
    const core = notes
      .filter((n) => n.core)
      .map((n) => ({ id: n.id, rank: n.core?.rank, label: n.core?.label }))
      .sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0));
    expect(core).toEqual(seed.core.map((c) => ({ id: c.id, rank: c.rank, label: c.label })));
    // The core list repeats each decision's title, summary and status; they agree with the note.
    for (const c of seed.core) {
      const note = byId.get(c.id);
      expect({ title: note?.title, summary: note?.summary, status: note?.status }).toEqual({
        title: c.title,
        summary: c.summary,
        status: SEED_STATUS[c.status],
      });
    }
  });

  it("relates notes only to notes that exist", () => {
    const dangling = notes.flatMap((n) => n.related.filter((r) => !byId.has(r)).map((r) => `${n.id} → ${r}`));
    expect(dangling).toEqual([]);
  });

  it.each(parsed)("$name is in canonical form: serializing the parsed note gives the file back byte for byte", ({ source, result }) => {
    expect(result.ok).toBe(true);
    if (result.ok) expect(serializeNote(result.note)).toBe(source);
  });
});
