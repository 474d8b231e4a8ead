import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import { searchNotes } from "./index";
import { seedNotes, viewOf as viewAt } from "@/lib/testing/seed";

// The archive's own 21 notes, as the published view would list them.
const seed: Note[] = seedNotes();

// Each view a new commit, as each publish would be: the live index moves by the notes that changed.
let commits = 0;
const viewOf = (notes: Note[]) => viewAt(notes, (++commits).toString(16).padStart(40, "0"));

const view = viewOf(seed);

describe("searchNotes", () => {
  it("puts the note titled after the phrase first", async () => {
    const hits = await searchNotes(view, "sparse attention");
    expect(hits[0]?.id).toBe("AFN-016");
    // The other notes tagged sparse attention are found too.
    expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining(["AFN-011", "AFN-017", "AFN-018"]));
  });

  it("returns a passage that contains the match, from the field it names", async () => {
    const [hit] = await searchNotes(view, "bank flip");
    expect(hit?.id).toBe("AFN-010");
    expect(hit?.passage.toLowerCase()).toContain("bank flip");
    const note = view.byId.get("AFN-010");
    expect(hit?.field).toBe("title");
    expect(note?.title).toContain(hit?.passage);
  });

  it("searches the sections, not only the front matter, and cuts a short passage around the match", async () => {
    const needle = "masked-out entries";
    const owner = seed.find((n) => n.sections.rejectedShortcut.includes(needle));
    expect(owner).toBeDefined();
    const hits = await searchNotes(view, needle);
    const hit = hits.find((h) => h.id === owner?.id);
    expect(hit?.field).toBe("rejectedShortcut");
    expect(hit?.passage).toContain(needle);
    expect(hit?.passage.length).toBeLessThanOrEqual(230);
  });

  it("finds a note by its ID, its phase and a tag", async () => {
    expect((await searchNotes(view, "AFN-004"))[0]?.id).toBe("AFN-004");
    expect((await searchNotes(view, "GGUF validation"))[0]?.id).toBe("AFN-004");
    const phase5 = (await searchNotes(view, "Phase 5")).slice(0, 5).map((h) => h.id);
    expect(phase5.every((id) => view.byId.get(id)?.phase === "5")).toBe(true);
  });

  it("ranks, limits, and answers nothing for an empty query or a word no note has", async () => {
    const hits = await searchNotes(view, "Qwen4Exp", { limit: 3 });
    expect(hits).toHaveLength(3);
    expect(hits[0]!.score).toBeGreaterThanOrEqual(hits[2]!.score);
    expect(await searchNotes(view, "   ")).toEqual([]);
    expect(await searchNotes(view, "zyzzogeton")).toEqual([]);
  });

  it("tolerates a typo in a long word and an unfinished last word", async () => {
    expect((await searchNotes(view, "transactionl"))[0]?.id).toBeDefined();
    expect((await searchNotes(view, "tokeniz")).map((h) => h.id)).toContain("AFN-007");
  });

  it("indexes what the view holds: a note outside it is never found, a new commit's note is", async () => {
    const without = viewOf(seed.filter((n) => n.id !== "AFN-016"));
    expect((await searchNotes(without, "sparse mask")).map((h) => h.id)).not.toContain("AFN-016");
    const extra: Note = { ...seed[0]!, id: "AFN-950", title: "Quasicrystal paging", related: [] };
    expect((await searchNotes(viewOf([...seed, extra]), "quasicrystal"))[0]?.id).toBe("AFN-950");
    // The earlier commit's index is unchanged.
    expect(await searchNotes(view, "quasicrystal")).toEqual([]);
  });
});
