import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { acceptWrite, needsApproval, type NoteWriteContext } from "./accept-write";
import { listOfLabels, substanceChanges } from "./verified-change";

/** "Verified means reviewed": a published change to a verified note's substance needs an approval of that exact revision. */

const seed = (id: string): Note => {
  const parsed = parseNote(fs.readFileSync(path.resolve(__dirname, "../../content/notes", `${id}.md`), "utf8"));
  if (!parsed.ok) throw new Error(id);
  return parsed.note;
};
const REV = "b".repeat(40);
const ada = { id: "ada", role: "author" } as const;
const verified = { ...seed("AFN-016"), status: "verified-checkpoint" as const };
const context = (verdicts: NoteWriteContext["review"]["verdicts"] = [], over: Partial<NoteWriteContext> = {}): NoteWriteContext => ({
  phases: [],
  publishedIds: new Set(["AFN-016", "AFN-011", "AFN-017"]),
  onMain: verified,
  review: { revision: REV, revisionAuthors: ["ada"], verdicts },
  ...over,
});
const publish = (after: Note, ctx: NoteWriteContext) => acceptWrite({ kind: "publish", before: ctx.onMain, after, actor: ada, context: ctx });
const withDecision = (text: string): Note => ({ ...verified, sections: { ...verified.sections, decision: text } });

describe("substance and editorial changes", () => {
  // Each row: what changes, and whether a reviewer must approve it.
  const rows: [string, (n: Note) => Note, string[]][] = [
    ["the Decision", (n) => ({ ...n, sections: { ...n.sections, decision: "The opposite." } }), ["Decision"]],
    ["the Invariant", (n) => ({ ...n, sections: { ...n.sections, invariant: "None." } }), ["Invariant"]],
    ["the Rejected shortcut", (n) => ({ ...n, sections: { ...n.sections, rejectedShortcut: "x" } }), ["Rejected shortcut"]],
    ["the Evidence", (n) => ({ ...n, sections: { ...n.sections, evidence: "x" } }), ["Evidence"]],
    ["the Claim boundary", (n) => ({ ...n, sections: { ...n.sections, claimBoundary: "x" } }), ["Claim boundary"]],
    ["a boundary added", (n) => ({ ...n, boundaries: [...n.boundaries, "structural-only"] }), ["Boundaries"]],
    ["the title", (n) => ({ ...n, title: "Another claim" }), ["Title"]],
    ["the summary", (n) => ({ ...n, summary: "Another summary." }), ["Summary"]],
    ["the phase", (n) => ({ ...n, phase: "8–11 performance architecture" }), ["Phase"]],
    ["tags", (n) => ({ ...n, tags: [...n.tags, "attention"] }), []],
    ["related notes", (n) => ({ ...n, related: ["AFN-011"] }), []],
    ["the editorial order", (n) => ({ ...n, order: n.order + 5 }), []],
    ["the core label", (n) => ({ ...n, core: { rank: 1, label: "Attention" } }), []],
    ["boundaries reordered", (n) => ({ ...n, boundaries: [...n.boundaries].reverse() }), []],
  ];

  it.each(rows)("%s", (_what, change, labels) => {
    expect(substanceChanges(verified, change(verified)).map((c) => c.label)).toEqual(labels);
    expect(needsApproval(verified, change(verified))).toBe(labels.length > 0);
  });

  it("names the fields in words", () => {
    expect(listOfLabels([])).toBe("");
    expect(listOfLabels([{ field: "a", label: "Decision" }])).toBe("Decision");
    expect(listOfLabels(["Title", "Decision", "Evidence"].map((label) => ({ field: label, label })))).toBe("Title, Decision and Evidence");
  });
});

describe("publishing a change to a verified note", () => {
  it("is refused without an approval of that revision, naming the rule, the fields and what to do", async () => {
    const { allowed, findings } = await publish(withDecision("Use the dense path."), context());
    expect(allowed).toBe(false);
    expect(findings).toEqual([
      {
        rule: "verified-change",
        field: "sections.decision",
        message:
          "AFN-016 is verified, and this changes its Decision: a change to a verified note is published only with a reviewer's approval of that exact revision (no approval of revision bbbbbbb by a reviewer other than its authors). Ask a reviewer for a review of this revision, or publish the change as a new hypothesis that supersedes AFN-016",
      },
    ]);
  });

  it("is accepted with an approval of exactly that revision by someone who did not write it", async () => {
    const approved = context([{ reviewer: "rita", revision: REV, verdict: "approve" }]);
    expect((await publish(withDecision("Use the dense path."), approved)).findings).toEqual([]);
    const ofAnother = context([{ reviewer: "rita", revision: "c".repeat(40), verdict: "approve" }]);
    expect((await publish(withDecision("Use the dense path."), ofAnother)).findings.map((f) => f.rule)).toEqual(["verified-change"]);
    const byAnAuthor = context([{ reviewer: "ada", revision: REV, verdict: "approve" }]);
    expect((await publish(withDecision("Use the dense path."), byAnAuthor)).allowed).toBe(false);
  });

  it("needs REVIEW_APPROVALS approvals when it asks for more than one", async () => {
    const one = [{ reviewer: "rita", revision: REV, verdict: "approve" as const }];
    expect((await publish(withDecision("x"), context(one, { requiredApprovals: 2 }))).allowed).toBe(false);
    const two = [...one, { reviewer: "sam", revision: REV, verdict: "approve" as const }];
    expect((await publish(withDecision("x"), context(two, { requiredApprovals: 2 }))).allowed).toBe(true);
  });

  it("lets editorial changes through, and a retraction of the unchanged text", async () => {
    expect((await publish({ ...verified, tags: [...verified.tags, "attention"], related: ["AFN-011"] }, context())).findings).toEqual([]);
    const retracted = { ...verified, status: "retracted" as const, retraction_reason: "The benchmark measured the wrong kernel." };
    expect((await publish(retracted, context())).findings).toEqual([]);
    // Retracting while rewriting the claim is still a change to what a verified note said.
    const rewritten = { ...retracted, sections: { ...retracted.sections, evidence: "New evidence." } };
    expect((await publish(rewritten, context())).findings.map((f) => f.rule)).toEqual(["verified-change"]);
  });

  it("does not apply to a hypothesis, which is not a promise about its text", async () => {
    const hypothesis = { ...verified, status: "hypothesis" as const };
    expect((await publish({ ...hypothesis, sections: { ...hypothesis.sections, decision: "x" } }, context([], { onMain: hypothesis }))).findings).toEqual([]);
  });

  it("is held back by a standing request for changes until its reviewer approves a later revision or withdraws it", async () => {
    const request = { reviewer: "sam", name: "Sam", revision: "c".repeat(40), verdict: "request-changes" as const, at: "2026-12-01T00:00:00Z" };
    const approval = { reviewer: "rita", revision: REV, verdict: "approve" as const, at: "2026-12-02T00:00:00Z" };
    const blocked = await publish(withDecision("x"), context([request, approval]));
    expect(blocked.findings.map((f) => f.message)).toEqual([
      "publishing waits: Sam requested changes on revision ccccccc and has not approved a later revision or withdrawn the request; make the changes and ask Sam for a review, or ask them to withdraw it",
    ]);
    expect((await publish(withDecision("x"), context([{ ...request, withdrawn: true }, approval]))).allowed).toBe(true);
    expect((await publish(withDecision("x"), context([request, approval, { ...approval, reviewer: "sam", at: "2026-12-03T00:00:00Z" }]))).allowed).toBe(true);
  });
});
