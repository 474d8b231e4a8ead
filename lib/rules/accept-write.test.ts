import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { acceptWrite, type NoteWriteContext } from "./accept-write";
import { approvalTrailersOf, formatTrailers, sameNoteApartFrom, verifyApprovalTrailers } from "./approval-trailers";

/** The acceptance function on its own: every finding at once, each with its rule and field. */

const seed = (id: string): Note => {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, "../../content/notes", `${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(id);
  return parsed.note;
};
const ada = { id: "ada", role: "author" } as const;
const context = (over: Partial<NoteWriteContext> = {}): NoteWriteContext => ({
  phases: ["6 architecture", "8–11 performance architecture"],
  publishedIds: new Set(["AFN-016"]),
  onMain: null,
  review: { revision: "a".repeat(40), revisionAuthors: ["ada"], verdicts: [] },
  ...over,
});

describe("acceptWrite", () => {
  it("answers a create with every finding: schema, unknown phase and archive policy together", async () => {
    const note = { ...seed("AFN-016"), id: "AFN-030", status: "draft" as const, title: "", phase: "7 nowhere" };
    note.sections = { ...note.sections, evidence: "Logs are in\n/home/someone/runs.log" };
    const { allowed, findings } = await acceptWrite({ kind: "create", before: null, after: note, actor: ada, context: context() });
    expect(allowed).toBe(false);
    expect(findings.map((f) => [f.rule, f.field])).toEqual([
      ["schema", "title"],
      ["phase", "phase"],
    ]);
    // With the title fixed the schema passes, and the phase and the policy both speak.
    const second = await acceptWrite({ kind: "create", before: null, after: { ...note, title: "A title" }, actor: ada, context: context() });
    expect(second.findings.map((f) => [f.rule, f.field, f.line])).toEqual([
      ["phase", "phase", undefined],
      ["archive-policy", "sections.evidence", 2],
    ]);
  });

  it("holds a note new to main to the app's road: a hypothesis first, then an approval of the revision", async () => {
    const note = { ...seed("AFN-016"), id: "AFN-030", status: "verified-checkpoint" as const };
    const bare = await acceptWrite({ kind: "publish", before: null, after: note, actor: ada, context: context() });
    expect(bare.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^hypothesis → verified-checkpoint: no approval of revision aaaaaaa/)]);
    const approved = context({
      review: { revision: "a".repeat(40), revisionAuthors: ["ada"], verdicts: [{ reviewer: "rita", revision: "a".repeat(40), verdict: "approve" }] },
    });
    expect((await acceptWrite({ kind: "publish", before: null, after: note, actor: ada, context: approved })).findings).toEqual([]);
    // An approval by one of the note's own authors does not count.
    const self = context({
      review: { revision: "a".repeat(40), revisionAuthors: ["ada", "rita"], verdicts: [{ reviewer: "rita", revision: "a".repeat(40), verdict: "approve" }] },
    });
    expect((await acceptWrite({ kind: "publish", before: null, after: note, actor: ada, context: self })).allowed).toBe(false);
  });

  it("refuses a phase closed without a record, and a no-delta record that is not words", async () => {
    const phase = { name: "5", slug: "5", status: "open" as const, description: "Phase 5.", reopenings: [] };
    const bare = await acceptWrite({
      kind: "phase-close",
      before: phase,
      after: { ...phase, status: "closed", closed: "2026-12-02" },
      actor: ada,
      context: { facts: [] },
    });
    expect(bare.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^no decision delta/)]);
    const shrug = {
      ...phase,
      status: "closed" as const,
      closed: "2026-12-02",
      closeout: { kind: "no-delta" as const, by: "ada", at: "2026-12-02", why: "none" },
    };
    expect((await acceptWrite({ kind: "phase-close", before: phase, after: shrug, actor: ada, context: { facts: [] } })).findings.map((f) => f.field)).toEqual([
      "closeout.why",
    ]);
  });
});

describe("approval trailers", () => {
  const landed = { ...seed("AFN-016"), status: "verified-checkpoint" as const };
  const approvedRevision = "b".repeat(40);
  const message = `Publish AFN-016\n\nFirst publication.\n\n${formatTrailers({ draftRevision: "c".repeat(40), approvers: [{ reviewer: "rita", record: "0123456789ab" }] })}`;

  it("round-trip through git's trailer format", () => {
    expect(approvalTrailersOf(message)).toEqual({ draftRevision: "c".repeat(40), approvers: [{ reviewer: "rita", record: "0123456789ab" }], problems: [] });
  });

  it("count only a record that exists, is an approval by that reviewer, not an author, of the note that landed", () => {
    const evidence = {
      id: "AFN-016",
      landed,
      trailers: { draftRevision: null, approvers: [{ reviewer: "rita", record: "0123456789ab" }], problems: [] },
      records: new Map([["0123456789ab", { id: "0123456789ab", by: "rita", revision: approvedRevision, verdict: "approve" as const }]]),
      noteAt: new Map([[approvedRevision, { ...landed, status: "hypothesis" as const, order: 3 }]]),
      authorsAt: new Map([[approvedRevision, ["ada"]]]),
    };
    expect(verifyApprovalTrailers(evidence)).toEqual({
      review: { revision: approvedRevision, revisionAuthors: ["ada"], verdicts: [{ reviewer: "rita", revision: approvedRevision, verdict: "approve" }] },
      problems: [],
    });
    expect(verifyApprovalTrailers({ ...evidence, records: new Map() }).problems).toEqual([expect.stringMatching(/has no verdict record 0123456789ab/)]);
    expect(verifyApprovalTrailers({ ...evidence, authorsAt: new Map([[approvedRevision, ["ada", "rita"]]]) }).problems).toEqual([
      expect.stringMatching(/rita wrote a revision of AFN-016/),
    ]);
    const changed = new Map([[approvedRevision, { ...landed, title: "Something else" }]]);
    expect(verifyApprovalTrailers({ ...evidence, noteAt: changed }).problems).toEqual([expect.stringMatching(/is not the note that landed/)]);
    expect(sameNoteApartFrom(landed, { ...landed, status: "hypothesis", order: 99 })).toBe(true);
  });
});
