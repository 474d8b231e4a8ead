import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { diffNotes, type FieldDiff } from "./sections";

function load(id: string): Note {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, `../../content/notes/${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
}

const note = load("AFN-016");

/** The text a reader sees on each side of a field's diff. */
function sides(d: FieldDiff | undefined) {
  const parts = d?.parts ?? [];
  const join = (keep: (k: string) => boolean) =>
    parts
      .filter((p) => keep(p.kind))
      .map((p) => p.text)
      .join(d?.list ? "|" : "");
  return {
    before: join((k) => k !== "added"),
    after: join((k) => k !== "removed"),
    added: parts.filter((p) => p.kind === "added").map((p) => p.text),
    removed: parts.filter((p) => p.kind === "removed").map((p) => p.text),
  };
}

describe("diffNotes", () => {
  it("finds nothing between a revision and itself", () => {
    expect(diffNotes(note, structuredClone(note))).toEqual([]);
  });

  it("shows a changed word in a section as removed and added words, with both sides reconstructible", () => {
    const after = structuredClone(note);
    after.sections.invariant = note.sections.invariant.replace("allocates", "reserves");
    const diffs = diffNotes(note, after);
    expect(diffs.map((d) => d.label)).toEqual(["Invariant"]);
    const s = sides(diffs[0]);
    expect(s.removed).toEqual(["allocates"]);
    expect(s.added).toEqual(["reserves"]);
    expect(s.before).toBe(note.sections.invariant);
    expect(s.after).toBe(after.sections.invariant);
    expect(diffs[0]?.change).toBe("changed");
  });

  it("lists changes in page order: front matter first, then sections", () => {
    const after = structuredClone(note);
    after.title = "A sparse mask is still not sparse attention";
    after.sections.evidence = `${note.sections.evidence}\n\nA new measurement.`;
    after.status = "hypothesis";
    expect(diffNotes(note, after).map((d) => d.label)).toEqual(["Title", "Status", "Evidence"]);
  });

  it("names a renamed phase by its title with the name the note carries, by the titles given; a phase never renamed by its name", () => {
    const after = structuredClone(note);
    after.phase = "agent operations";
    const titles = { "agent operations": "Agents in operation" };
    const [phase] = diffNotes(note, after, titles);
    expect(phase?.label).toBe("Phase");
    expect(sides(phase)).toMatchObject({ before: note.phase, after: `Agents in operation (the note's phase field says "agent operations")` });
    // A diff that does not touch the phase is the same with or without titles.
    expect(diffNotes(note, structuredClone(note), titles)).toEqual([]);
    expect(sides(diffNotes(note, after)[0]).after).toBe("agent operations");
  });

  it("diffs tags and related notes item by item", () => {
    const after = structuredClone(note);
    after.tags = note.tags.filter((t) => t !== "Metal").concat("CUDA");
    after.related = [...note.related, "AFN-019"];
    const [tags, related] = diffNotes(note, after);
    expect(tags?.label).toBe("Tags");
    expect(sides(tags).removed).toEqual(["Metal"]);
    expect(sides(tags).added).toEqual(["CUDA"]);
    expect(sides(related).added).toEqual(["AFN-019"]);
  });

  it("says when a section is new or emptied", () => {
    const after = structuredClone(note);
    after.sections.notes = "";
    after.sections.claimBoundary = note.sections.claimBoundary;
    const before = structuredClone(note);
    before.sections.evidence = "";
    const diffs = diffNotes(before, after);
    expect(diffs.find((d) => d.field === "evidence")?.change).toBe("added");
    expect(diffs.find((d) => d.field === "notes")?.change).toBe("removed");
  });

  it("folds a long unchanged stretch, keeping the change and the text around it", () => {
    const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(" ");
    const before = structuredClone(note);
    before.sections.decision = `${long} tail`;
    const after = structuredClone(note);
    after.sections.decision = `${long} TAIL`;
    const [d] = diffNotes(before, after);
    const kinds = d?.parts.map((p) => p.kind);
    expect(kinds).toEqual(["gap", "same", "removed", "added"]);
    expect(d?.parts[1]?.text.length).toBeLessThan(200);
    expect(
      d?.parts
        .filter((p) => p.kind !== "added")
        .map((p) => p.text)
        .join(""),
    ).toBe(before.sections.decision);
  });

  it("treats the first revision as every field added", () => {
    const diffs = diffNotes(null, note);
    expect(diffs.every((d) => d.change === "added")).toBe(true);
    expect(diffs.map((d) => d.field)).toEqual(expect.arrayContaining(["title", "summary", "decision", "evidence"]));
  });
});
