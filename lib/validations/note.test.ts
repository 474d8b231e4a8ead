import { describe, expect, it } from "vitest";
import { blankFields, composeNote, fieldOfPath, sameFields, validateNote } from "./note";

/** The editor's fields, checked by the note schema exactly as the server checks them. */

const meta = { id: "AFN-022", status: "draft" as const, order: 22 };

describe("the editor's fields", () => {
  it("name every problem of a blank note at its field", () => {
    const result = validateNote(composeNote(meta, blankFields()));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { field: "title", message: "title is empty" },
      { field: "summary", message: "summary is empty" },
      { field: "phase", message: "phase is empty" },
    ]);
  });

  it("read lists as a person types them: commas split, spaces and empty items dropped, ids upper-cased", () => {
    const note = composeNote(meta, {
      ...blankFields(),
      title: " A title ",
      summary: "S",
      phase: "P",
      tags: ["sparse attention", " ", " Metal"],
      related: [" afn-016", ""],
    });
    expect(note).toMatchObject({ title: "A title", tags: ["sparse attention", "Metal"], related: ["AFN-016"] });
    expect(validateNote(note).ok).toBe(true);
  });

  it("put section and core problems at the section or the core field, and list items at the list", () => {
    expect(fieldOfPath(["sections", "evidence"])).toBe("sections.evidence");
    expect(fieldOfPath(["core", "rank"])).toBe("core.rank");
    expect(fieldOfPath(["tags", 3])).toBe("tags");
    const result = validateNote(
      composeNote(meta, {
        ...blankFields(),
        title: "T",
        summary: "S",
        phase: "P",
        core: { rank: 0, label: "" },
        sections: { ...blankFields().sections, invariant: "## Not here" },
      }),
    );
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toEqual(["core.rank", "core.label", "sections.invariant"]);
  });

  it("compare as the note they make", () => {
    expect(sameFields({ ...blankFields(), tags: ["a", " "] }, { ...blankFields(), tags: ["a"] })).toBe(true);
    expect(sameFields({ ...blankFields(), title: "a" }, blankFields())).toBe(false);
  });
});
