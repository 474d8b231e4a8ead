import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import { SEARCH_FIELDS, searchDocument, searchField } from "./fields";

// The archive's own notes: their sections hold links, code, lists and emphasis.
const root = path.resolve(__dirname, "../../content/notes");
const notes = fs
  .readdirSync(root)
  .filter((f) => f.endsWith(".md"))
  .map((f) => {
    const parsed = parseNote(fs.readFileSync(path.join(root, f), "utf8"));
    if (!parsed.ok) throw new Error(`${f}: ${JSON.stringify(parsed.errors)}`);
    return parsed.note;
  });

describe("searchField", () => {
  it("is the indexed document's text of that field, for every field of every note (a passage is cut from what was indexed)", () => {
    expect(notes.length).toBeGreaterThan(10);
    for (const note of notes) {
      const doc = searchDocument(note);
      for (const { field } of SEARCH_FIELDS) expect(searchField(note, field), `${note.id} ${field}`).toBe(doc[field]);
    }
  });
});
