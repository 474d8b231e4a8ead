import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import { liveIndex, searchNotes, searchView } from "./index";
import { newSearchIndex, rankQuery } from "./engine";
import { searchDocument } from "./fields";
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

  it("orders notes of equal score by their number, AFN-999 before AFN-1000, as every list does", async () => {
    const twin = seed.find((n) => n.id === "AFN-010")!;
    const notes = [...seed.filter((n) => n.id !== twin.id), { ...twin, id: "AFN-1000" }, { ...twin, id: "AFN-999" }];
    const [first, second] = await searchNotes(viewOf(notes), "bank flip");
    expect(first?.score).toBe(second?.score);
    expect([first?.id, second?.id]).toEqual(["AFN-999", "AFN-1000"]);
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

describe("a renamed phase's title", () => {
  const phase5 = seed.filter((n) => n.phase === "5").map((n) => n.id);
  const queries = ["quantised kernels", "kernels", "Phase 5", "sparse attention", "zephyr quorum", "5"];

  // The live index, moved commit by commit, ranks as an index built afresh from the same view.
  const rankedAsFresh = (at: ReturnType<typeof viewOf>, titles: Record<string, string>) => {
    const searched = searchView(at, titles);
    const fresh = newSearchIndex();
    for (const note of searched.notes) fresh.add(searchDocument(note));
    const live = liveIndex()!;
    expect(live.commit).toBe(at.commit);
    for (const q of queries) expect(rankQuery(searched, live.search, q, 20), q).toEqual(rankQuery(searched, fresh, q, 20));
  };

  it("is searched as the phase, and after the next rename only the new title is; a view with no phase renamed is searched as it is", async () => {
    expect(searchView(view, {})).toBe(view);
    const one = viewOf(seed);
    const hits = await searchNotes(one, "quantised kernels", { titles: { "5": "Quantised kernels" } });
    expect(
      hits
        .slice(0, phase5.length)
        .map((h) => h.id)
        .sort(),
    ).toEqual([...phase5].sort());
    expect(hits[0]).toMatchObject({ field: "phase", passage: "Phase Quantised kernels (5)" });
    rankedAsFresh(one, { "5": "Quantised kernels" });

    // The next commit renames it again: its notes move in the index, the old title matches nothing.
    const two = viewOf(seed);
    expect((await searchNotes(two, "quantised", { titles: { "5": "Zephyr quorum" } })).map((h) => h.id)).toEqual([]);
    expect(
      (await searchNotes(two, "zephyr quorum", { titles: { "5": "Zephyr quorum" } }))
        .slice(0, phase5.length)
        .map((h) => h.id)
        .sort(),
    ).toEqual([...phase5].sort());
    rankedAsFresh(two, { "5": "Zephyr quorum" });

    // Back to its name: as before any rename.
    const three = viewOf(seed);
    expect(await searchNotes(three, "zephyr quorum", { titles: {} })).toEqual([]);
    rankedAsFresh(three, {});
    expect((await searchNotes(three, "sparse attention")).map((h) => [h.id, h.score])).toEqual(
      (await searchNotes(view, "sparse attention")).map((h) => [h.id, h.score]),
    );
  });
});
