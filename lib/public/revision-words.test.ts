import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffNotes } from "@/lib/diff/sections";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { approvalWords, changedFields, lastClaimChange, listOf, revisionWords } from "./revision-words";

function load(id: string): Note {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, `../../content/notes/${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  return parsed.note;
}

// AFN-016 as a hypothesis with no boundary: the starting point each case edits.
const seed = load("AFN-016");
const base: Note = { ...structuredClone(seed), status: "hypothesis", boundaries: [], superseded_by: undefined, retraction_reason: undefined };
const edit = (change: (n: Note) => void, from: Note = base): Note => {
  const n = structuredClone(from);
  change(n);
  return n;
};
const verified = edit((n) => (n.status = "verified-checkpoint"));

describe("revisionWords: what one revision did, from the notes before and after it", () => {
  const cases: [string, Note | null, Note, string][] = [
    ["first revision, hypothesis", null, base, "First published as hypothesis"],
    ["first revision, verified", null, verified, "First published as verified checkpoint"],
    ["hypothesis promoted, nothing else", base, verified, "Promoted to verified checkpoint"],
    ["hypothesis promoted to structural", base, edit((n) => (n.status = "verified-structural")), "Promoted to verified structural decision"],
    ["checkpoint reclassified", verified, edit((n) => (n.status = "verified-structural"), verified), "Reclassified as verified structural decision"],
    [
      "promoted with an edit (plain git)",
      base,
      edit((n) => ((n.status = "verified-checkpoint"), (n.sections.evidence += "\n- one more run")), base),
      "Promoted to verified checkpoint; Evidence changed",
    ],
    ["one section", base, edit((n) => (n.sections.decision += " Always.")), "Decision changed"],
    [
      "two sections, in page order",
      base,
      edit((n) => ((n.sections.evidence += " More."), (n.sections.decision += " Always."))),
      "Decision and Evidence changed",
    ],
    [
      "title, summary and a section",
      base,
      edit((n) => ((n.title += "!"), (n.summary += " Also."), (n.sections.invariant += " Always."))),
      "Title, Summary and Invariant changed",
    ],
    [
      "four fields are all named",
      base,
      edit((n) => ((n.title += "!"), (n.summary += "."), (n.sections.decision += "."), (n.sections.evidence += "."))),
      "Title, Summary, Decision and Evidence changed",
    ],
    [
      "more than four are counted",
      base,
      edit((n) => ((n.title += "!"), (n.summary += "."), (n.sections.decision += "."), (n.sections.evidence += "."), (n.sections.claimBoundary += "."))),
      "Title, Summary, Decision and 2 other fields changed",
    ],
    ["tags only", base, edit((n) => (n.tags = [...n.tags, "new tag"])), "Tags changed"],
    ["a boundary added", base, edit((n) => (n.boundaries = ["structural-only"])), "Boundaries changed"],
    ["related and order", base, edit((n) => ((n.related = [...n.related, "AFN-001"]), (n.order += 1))), "Related notes and Position in the list changed"],
    [
      "retracted with its reason (not listed again)",
      base,
      edit((n) => ((n.status = "retracted"), (n.retraction_reason = "The benchmark was run on the wrong kernel."))),
      "Retracted: The benchmark was run on the wrong kernel.",
    ],
    [
      "superseded (its successor not listed again)",
      verified,
      edit((n) => ((n.status = "superseded"), (n.superseded_by = "AFN-021")), verified),
      "Superseded by AFN-021",
    ],
    [
      "superseded with an edit",
      verified,
      edit((n) => ((n.status = "superseded"), (n.superseded_by = "AFN-021"), (n.sections.notes = "See AFN-021.")), verified),
      "Superseded by AFN-021; Notes changed",
    ],
    ["verified back to hypothesis (plain git)", verified, base, "Status changed from verified checkpoint to hypothesis"],
    ["nothing changed (a reformatted file)", base, structuredClone(base), "Reformatted; no field changed"],
  ];
  for (const [name, before, after, words] of cases) {
    it(name, () => expect(revisionWords(before, after)).toBe(words));
  }

  it("names exactly the fields the history page draws a diff for", () => {
    for (const [, before, after] of cases) {
      expect(changedFields(before, after).map((f) => f.label)).toEqual(diffNotes(before, after).map((d) => d.label));
    }
  });
});

describe("lastClaimChange: the revision a verified note's claim last changed in (revisions newest first)", () => {
  const r = (note: Note) => ({ note });
  const hypothesisEdited = edit((n) => (n.sections.decision += " Always."));
  const promoted = edit((n) => (n.status = "verified-checkpoint"), hypothesisEdited);
  const cases: [string, Note[], { at: number; words: string } | null][] = [
    ["first published as verified", [verified], { at: 0, words: "Verified" }],
    ["a hypothesis edited, then promoted: the promotion", [promoted, hypothesisEdited, base], { at: 0, words: "Verified" }],
    [
      "promoted, then tags changed: still the promotion",
      [edit((n) => (n.tags = ["x"]), promoted), promoted, hypothesisEdited, base],
      { at: 1, words: "Verified" },
    ],
    [
      "promoted, then the decision and evidence changed, then related: the edit",
      [
        edit(
          (n) => (n.related = ["AFN-001"]),
          edit((n) => ((n.sections.decision += " Now."), (n.sections.evidence += " Now.")), promoted),
        ),
        edit((n) => ((n.sections.decision += " Now."), (n.sections.evidence += " Now.")), promoted),
        promoted,
        base,
      ],
      { at: 1, words: "Decision and Evidence changed" },
    ],
    ["a boundary added while verified", [edit((n) => (n.boundaries = ["pinned-not-supported"]), verified), verified], { at: 0, words: "Boundaries changed" }],
    [
      "tags, related notes, core and order are editorial",
      [edit((n) => ((n.tags = ["x"]), (n.related = ["AFN-001"]), (n.core = undefined), (n.order += 1)), verified), verified],
      { at: 1, words: "Verified" },
    ],
    [
      "the Notes section and the phase are substance, as the approval rule says",
      [edit((n) => ((n.sections.notes = "Later."), (n.phase = "5 kernels")), verified), verified],
      { at: 0, words: "Notes and Phase changed" },
    ],
    ["reclassified after verification", [edit((n) => (n.status = "verified-structural"), verified), verified, base], { at: 0, words: "Reclassified" }],
    [
      "promoted with the decision changed in the same revision: the change",
      [edit((n) => (n.status = "verified-checkpoint"), hypothesisEdited), base],
      { at: 0, words: "Decision changed" },
    ],
    [
      "reclassified with the title changed: the change",
      [edit((n) => ((n.status = "verified-structural"), (n.title += "!")), verified), verified],
      { at: 0, words: "Title changed" },
    ],
    ["not verified now: nothing", [base], null],
    ["superseded after verified: nothing", [edit((n) => ((n.status = "superseded"), (n.superseded_by = "AFN-021")), verified), verified], null],
    ["no revisions", [], null],
  ];
  for (const [name, notes, expected] of cases) {
    it(name, () => expect(lastClaimChange(notes.map(r))).toEqual(expected));
  }
});

describe("listOf and approvalWords", () => {
  it.each([
    [[], ""],
    [["Decision"], "Decision"],
    [["Decision", "Evidence"], "Decision and Evidence"],
    [["A", "B", "C", "D", "E", "F"], "A, B, C and 3 other fields"],
  ])("listOf(%j) = %j", (labels, words) => expect(listOf(labels)).toBe(words));

  it.each([
    [["Ada Lovelace"], "approved by Ada Lovelace"],
    [["Ada Lovelace", "rita"], "approved by Ada Lovelace and rita"],
    [["A", "B", "C"], "approved by A, B and C"],
    [[], "no approval recorded"],
  ])("approvalWords(%j) = %j", (names, words) => expect(approvalWords(names)).toBe(words));
});
