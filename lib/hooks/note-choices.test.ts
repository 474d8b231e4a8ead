import { describe, expect, it } from "vitest";
import { matchNotes, noteIdIn } from "./note-choices";

const notes = [
  { id: "AFN-001", title: "Paged KV cache" },
  { id: "AFN-011", title: "Masked blocks are never loaded" },
  { id: "AFN-017", title: "Décodage spéculatif" },
];

describe("matchNotes", () => {
  it("finds by words of the title, in any case and without accents", () => {
    expect(matchNotes(notes, "masked LOADED").map((n) => n.id)).toEqual(["AFN-011"]);
    expect(matchNotes(notes, "decodage").map((n) => n.id)).toEqual(["AFN-017"]);
  });

  it("finds by id, typed in full or as a number, that note first", () => {
    expect(matchNotes(notes, "AFN-011").map((n) => n.id)).toEqual(["AFN-011"]);
    expect(matchNotes(notes, "11").map((n) => n.id)).toEqual(["AFN-011"]);
    expect(matchNotes(notes, "afn 1").map((n) => n.id)[0]).toBe("AFN-001");
  });

  it("offers every note for an empty query and none for a miss", () => {
    expect(matchNotes(notes, "  ")).toHaveLength(3);
    expect(matchNotes(notes, "nothing like this")).toEqual([]);
  });
});

describe("noteIdIn", () => {
  it("reads the id at the start of what the input holds", () => {
    expect(noteIdIn("afn-011")).toBe("AFN-011");
    expect(noteIdIn("AFN-011 Masked blocks are never loaded")).toBe("AFN-011");
    expect(noteIdIn("masked")).toBeNull();
  });
});
