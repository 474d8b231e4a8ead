import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import {
  comparePhases,
  filterRecords,
  groupByPhase,
  neighbors,
  parseRecordQuery,
  recordFacets,
  recordsHref,
  sortHref,
  sortRecords,
  statusChoices,
  tagChoices,
  canonicalRecordsHref,
  DEFAULT_QUERY,
} from "@/lib/public/record-query";

/** Just the fields the records list reads; the rest of a note does not matter here. */
function note(id: string, status: Note["status"], phase: string, tags: string[], title = `Title of ${id}`): Note {
  return { id, status, phase, tags, title } as Note;
}

// In editorial order (as the published view holds them).
const NOTES = [
  note("AFN-021", "hypothesis", "Qwen4Exp predictive I/O training", ["DFlash 2", "MoE routing"], "Prefill replay"),
  note("AFN-016", "verified-checkpoint", "6 architecture", ["sparse attention", "QSA"], "A sparse mask is not sparse attention"),
  note("AFN-011", "verified-checkpoint", "5", ["Hebrus", "sparse attention"], "Dense reference first"),
  note("AFN-003", "verified-structural", "2", ["SSD streaming"], "checksummed rows"),
  note("AFN-019", "hypothesis", "8–11 performance architecture", ["SSD streaming"], "Expert-major v2"),
];
const ids = (notes: Note[]) => notes.map((n) => n.id);

describe("parseRecordQuery", () => {
  it("reads every control from the URL, tags and phases as slugs", () => {
    const { query, problems } = parseRecordQuery({
      status: "hypothesis",
      tag: "Sparse Attention",
      phase: "6 architecture",
      view: "table",
      sort: "updated",
      group: "phase",
    });
    expect(query).toEqual({ status: "hypothesis", tag: "sparse-attention", phase: "6-architecture", view: "table", sort: "updated", dir: "desc", group: true });
    expect(problems).toEqual([]);
  });

  it("says what it did not understand and keeps the defaults for it", () => {
    const { query, problems } = parseRecordQuery({ view: "grid", sort: "size", dir: "up", group: "tag" });
    expect(query).toEqual(DEFAULT_QUERY);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/“grid” is not a view/);
  });

  it("treats an empty form field as no filter", () => {
    expect(parseRecordQuery({ status: "", tag: "", phase: " " }).query).toEqual(DEFAULT_QUERY);
  });
});

describe("filterRecords", () => {
  it("combines status, tag and phase", () => {
    expect(ids(filterRecords(NOTES, { status: "verified-checkpoint", tag: "sparse-attention", phase: null }))).toEqual(["AFN-016", "AFN-011"]);
    expect(ids(filterRecords(NOTES, { status: "verified-checkpoint", tag: "sparse-attention", phase: "5" }))).toEqual(["AFN-011"]);
    expect(ids(filterRecords(NOTES, { status: "hypothesis", tag: "ssd-streaming", phase: null }))).toEqual(["AFN-019"]);
    expect(filterRecords(NOTES, { status: "retracted", tag: null, phase: null })).toEqual([]);
  });
});

describe("comparePhases", () => {
  it("orders numbered phases by number, then named phases alphabetically", () => {
    const phases = ["agent operations", "8–11 performance architecture", "5", "DFlash2 compatibility boundary", "0–3", "6 architecture", "2", "10"];
    expect([...phases].sort(comparePhases)).toEqual([
      "0–3",
      "2",
      "5",
      "6 architecture",
      "8–11 performance architecture",
      "10",
      "agent operations",
      "DFlash2 compatibility boundary",
    ]);
  });
});

describe("sortRecords", () => {
  const updated = new Map([
    ["AFN-021", "2026-12-01T10:00:00Z"],
    ["AFN-016", "2026-12-03T10:00:00Z"],
    ["AFN-011", "2026-11-30T10:00:00Z"],
    ["AFN-003", "2026-12-02T10:00:00Z"],
  ]);

  it("keeps the editorial order by default", () => {
    expect(ids(sortRecords(NOTES, { sort: "order", dir: "desc" }, updated))).toEqual(ids(NOTES));
  });

  it("sorts by each column, both ways", () => {
    expect(ids(sortRecords(NOTES, { sort: "id", dir: "asc" }, updated))).toEqual(["AFN-003", "AFN-011", "AFN-016", "AFN-019", "AFN-021"]);
    expect(ids(sortRecords(NOTES, { sort: "title", dir: "asc" }, updated))).toEqual(["AFN-016", "AFN-003", "AFN-011", "AFN-019", "AFN-021"]);
    expect(ids(sortRecords(NOTES, { sort: "phase", dir: "asc" }, updated))).toEqual(["AFN-003", "AFN-011", "AFN-016", "AFN-019", "AFN-021"]);
    // Status in the status machine's order; ties keep the editorial order.
    expect(ids(sortRecords(NOTES, { sort: "status", dir: "asc" }, updated))).toEqual(["AFN-021", "AFN-019", "AFN-016", "AFN-011", "AFN-003"]);
    // Newest first; a note with no known date last.
    expect(ids(sortRecords(NOTES, { sort: "updated", dir: "desc" }, updated))).toEqual(["AFN-016", "AFN-003", "AFN-021", "AFN-011", "AFN-019"]);
    expect(ids(sortRecords(NOTES, { sort: "id", dir: "desc" }, updated))).toEqual(["AFN-021", "AFN-019", "AFN-016", "AFN-011", "AFN-003"]);
  });
});

describe("groupByPhase", () => {
  it("groups in phase order and keeps each group's order", () => {
    const groups = groupByPhase([...NOTES, note("AFN-012", "verified-checkpoint", "5", [])]);
    expect(groups.map((g) => g.phase)).toEqual(["2", "5", "6 architecture", "8–11 performance architecture", "Qwen4Exp predictive I/O training"]);
    expect(ids(groups[1]?.notes ?? [])).toEqual(["AFN-011", "AFN-012"]);
  });
});

describe("recordsHref and sortHref", () => {
  it("writes only what differs from the plain list, filters first", () => {
    expect(recordsHref(DEFAULT_QUERY)).toBe("/");
    expect(recordsHref(DEFAULT_QUERY, { status: "hypothesis", phase: "5" })).toBe("/?status=hypothesis&phase=5");
    expect(recordsHref({ ...DEFAULT_QUERY, view: "table", group: true }, {}, 2)).toBe("/?view=table&group=phase&page=2");
  });

  it("a column heading sorts by it, and flips the direction when it already sorts", () => {
    expect(sortHref(DEFAULT_QUERY, "title")).toBe("/?sort=title");
    expect(sortHref({ ...DEFAULT_QUERY, sort: "title", dir: "asc" }, "title")).toBe("/?sort=title&dir=desc");
    expect(sortHref(DEFAULT_QUERY, "updated")).toBe("/?sort=updated");
    expect(sortHref({ ...DEFAULT_QUERY, sort: "updated", dir: "desc" }, "updated")).toBe("/?sort=updated&dir=asc");
  });
});

describe("neighbors", () => {
  it("gives the records before and after a note, null at the ends", () => {
    expect(neighbors(NOTES, "AFN-011")).toEqual({ previous: NOTES[1], next: NOTES[3] });
    expect(neighbors(NOTES, "AFN-021").previous).toBeNull();
    expect(neighbors(NOTES, "AFN-019").next).toBeNull();
    expect(neighbors(NOTES, "AFN-999")).toEqual({ previous: null, next: null });
  });
});

describe("recordFacets", () => {
  it("counts each published status, lists each tag once by slug (first spelling kept) and the phases in order", () => {
    const notes = [...NOTES, note("AFN-022", "hypothesis", "5", ["Sparse Attention"])];
    expect(recordFacets(notes)).toEqual({
      counts: [
        { status: "hypothesis", count: 3 },
        { status: "verified-checkpoint", count: 2 },
        { status: "verified-structural", count: 1 },
      ],
      tags: [
        ["dflash-2", "DFlash 2"],
        ["moe-routing", "MoE routing"],
        ["sparse-attention", "sparse attention"],
        ["qsa", "QSA"],
        ["hebrus", "Hebrus"],
        ["ssd-streaming", "SSD streaming"],
      ],
      tagUses: new Map([
        ["dflash-2", 1],
        ["moe-routing", 1],
        ["sparse-attention", 3],
        ["qsa", 1],
        ["hebrus", 1],
        ["ssd-streaming", 2],
      ]),
      phases: ["2", "5", "6 architecture", "8–11 performance architecture", "Qwen4Exp predictive I/O training"],
    });
  });

  it("is counted once per notes array: a new array (another commit's view) is counted again", () => {
    const notes = [...NOTES];
    expect(recordFacets(notes)).toBe(recordFacets(notes));
    const next = [...notes, note("AFN-030", "superseded", "5", ["new tag"])];
    expect(recordFacets(next).counts).toContainEqual({ status: "superseded", count: 1 });
    expect(recordFacets(next).tags).toContainEqual(["new-tag", "new tag"]);
    expect(recordFacets(notes).tags).not.toContainEqual(["new-tag", "new tag"]);
  });
});

describe("statusChoices", () => {
  it("counts the statuses among the notes the tag and phase leave, not the archive's", () => {
    expect(statusChoices(NOTES, { status: null, tag: "ssd-streaming", phase: null })).toEqual({
      total: 2,
      counts: [
        { status: "hypothesis", count: 1 },
        { status: "verified-structural", count: 1 },
      ],
    });
    // Without tag or phase: the archive's counts.
    expect(statusChoices(NOTES, { status: "hypothesis", tag: null, phase: null }).total).toBe(NOTES.length);
  });

  it("keeps the chosen status listed (with 0) when the tag leaves none of it", () => {
    const { counts } = statusChoices(NOTES, { status: "verified-checkpoint", tag: "ssd-streaming", phase: null });
    expect(counts).toContainEqual({ status: "verified-checkpoint", count: 0 });
  });
});

describe("canonicalRecordsHref", () => {
  it("tidies the empty choices a plain GET form sends", () => {
    expect(canonicalRecordsHref({ status: "", tag: "ssd-streaming", phase: "", sort: "order" })).toBe("/?tag=ssd-streaming");
    expect(canonicalRecordsHref({ status: "", tag: "", phase: "", sort: "order" })).toBe("/");
    expect(canonicalRecordsHref({ tag: "SSD Streaming" })).toBe("/?tag=ssd-streaming");
  });

  it("leaves a canonical address, an unknown status and a query with problems alone", () => {
    expect(canonicalRecordsHref({})).toBeNull();
    expect(canonicalRecordsHref({ tag: "ssd-streaming", view: "table" })).toBeNull();
    expect(canonicalRecordsHref({ view: "table", tag: "ssd-streaming" })).toBeNull();
    expect(canonicalRecordsHref({ status: "bogus" })).toBeNull();
    expect(canonicalRecordsHref({ sort: "nonsense" })).toBeNull();
    expect(canonicalRecordsHref({ page: "2" })).toBeNull();
    expect(canonicalRecordsHref({ page: "1" })).toBe("/");
  });
});

describe("tagChoices", () => {
  it("offers every tag, by name, while there are few", () => {
    expect(tagChoices(recordFacets(NOTES), null)).toEqual({
      tags: [
        ["dflash-2", "DFlash 2"],
        ["hebrus", "Hebrus"],
        ["moe-routing", "MoE routing"],
        ["qsa", "QSA"],
        ["sparse-attention", "sparse attention"],
        ["ssd-streaming", "SSD streaming"],
      ],
      total: 6,
      mostUsed: 6,
    });
  });

  it("offers the most used when there are more than it shows, and always the tag chosen", () => {
    // tag-000 … tag-149: tag-k is on k % 7 + 1 notes, so the most used are those with k % 7 === 6.
    const many = Array.from({ length: 150 }, (_, k) => `tag-${String(k).padStart(3, "0")}`);
    const notes = many.flatMap((t, k) => Array.from({ length: (k % 7) + 1 }, (_, j) => note(`AFN-${k}-${j}`, "hypothesis", "5", [t])));
    const facets = recordFacets(notes);
    const { tags, total } = tagChoices(facets, null, 30);
    expect(total).toBe(150);
    expect(tags).toHaveLength(30);
    // The 21 tags on 7 notes, then 9 of those on 6 (ties by name), listed by name.
    const names = tags.map(([, name]) => name);
    expect(names).toEqual([...names].sort());
    expect(tags.every(([key]) => (facets.tagUses.get(key) ?? 0) >= 6)).toBe(true);
    expect(tags.filter(([key]) => facets.tagUses.get(key) === 7)).toHaveLength(21);
    // A tag on one note, chosen in the URL, stays in the list so the form shows what is applied.
    const chosen = tagChoices(facets, "tag-000", 30);
    expect(chosen.tags).toHaveLength(31);
    expect(chosen.tags).toContainEqual(["tag-000", "tag-000"]);
    // The page says how many of the most used it lists: 30, not the 31 names the chosen one makes.
    expect(chosen.mostUsed).toBe(30);
    expect(tagChoices(recordFacets(NOTES), null).mostUsed).toBe(6);
    expect(tagChoices(facets, "tag-006", 30).tags).toHaveLength(30);
  });
});
