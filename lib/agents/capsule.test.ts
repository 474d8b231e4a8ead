import path from "node:path";
import { describe, expect, it } from "vitest";
import { noteSchema, type Note } from "@/lib/notes/schema";
import { buildCapsule, CAPSULE_BUDGET, capsuleMarkdown } from "./capsule";
import { folderView, viewOf } from "./folder-view";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { tokens } from "./tokens";
import { agentUrls } from "./urls";

const view = folderView(path.resolve(__dirname, "../../content"), "c0ffee".padEnd(40, "0"));
const urls = agentUrls("https://notes.example.org");
const capsuleOf = (id: string) => buildCapsule(view.byId.get(id)!, view, urls);

describe("capsules of the archive's notes", () => {
  it(`are at most ${CAPSULE_BUDGET} tokens of Markdown each`, () => {
    const sizes = view.notes.map((n) => ({ id: n.id, tokens: tokens(capsuleMarkdown(capsuleOf(n.id))) }));
    for (const s of sizes) expect(s.tokens, s.id).toBeLessThanOrEqual(CAPSULE_BUDGET);
  });

  it("carry decision, invariant, rejected shortcut and claim boundary from the note", () => {
    const c = capsuleOf("AFN-010");
    const note = view.byId.get("AFN-010")!;
    expect(c.decision.startsWith("Make the whole inference chunk one transaction.")).toBe(true);
    expect(note.sections.invariant).toContain(c.invariant.replace(/…$/, "").slice(0, 40));
    expect(c.rejected_shortcut.length).toBeGreaterThan(20);
    expect(c.claim_boundary.length).toBeGreaterThan(20);
    const md = capsuleMarkdown(c);
    for (const label of [
      "Decision:",
      "Invariant:",
      "Rejected shortcut:",
      "Claim boundary:",
      "Evidence:",
      "Related:",
      "Full note: https://notes.example.org/notes/AFN-010.md",
    ]) {
      expect(md).toContain(label);
    }
  });

  it("spell out status and boundaries with their meaning, and the flags", () => {
    const structural = capsuleOf("AFN-003");
    expect(structural.flags).toEqual({ hypothesis: false, structural_only: true, pinned_not_supported: false });
    expect(structural.boundaries[0]?.meaning).toMatch(/proves structure only/);
    expect(capsuleMarkdown(structural)).toMatch(/Boundary: structural-only\. Hard limit: proves structure only/);
    expect(capsuleMarkdown(structural)).toContain("Flags: hypothesis no, structural-only yes, pinned-not-supported no.");

    const pinned = capsuleMarkdown(capsuleOf("AFN-013"));
    expect(pinned).toMatch(/Boundary: pinned-not-supported\. Hard limit: works against a pinned reference only/);

    const hypothesis = capsuleOf("AFN-021");
    expect(hypothesis.flags.hypothesis).toBe(true);
    expect(capsuleMarkdown(hypothesis)).toMatch(/Status: hypothesis\. Proposed, not verified/);
    expect(hypothesis.open_full_note.when).toMatch(/test this hypothesis/);
  });

  it("say when a field was clipped and that the full note has it whole", () => {
    for (const n of view.notes) {
      const c = capsuleOf(n.id);
      const clipped = [c.decision, c.invariant, c.rejected_shortcut, c.claim_boundary, c.evidence.summary].some((f) => f.endsWith("…"));
      expect(/whole \(clipped here/.test(c.open_full_note.when), n.id).toBe(clipped);
    }
  });

  it("validate against the published capsule schema", () => {
    const check = schemaValidator(jsonSchemaOf("capsule", urls.schema("capsule")));
    for (const n of view.notes) expect(check(capsuleOf(n.id)), n.id).toEqual([]);
  });
});

describe("a capsule at the limits of the note schema", () => {
  const long = (words: number) => Array.from({ length: words }, (_, i) => `word${i}`).join(" ") + ".";
  const big: Note = noteSchema.parse({
    id: "AFN-900",
    title: "T".repeat(60) + " " + "a very long title ".repeat(7).trim(),
    summary: long(60),
    status: "verified-structural",
    boundaries: ["structural-only", "pinned-not-supported"],
    phase: "a phase with a long name",
    tags: Array.from({ length: 20 }, (_, i) => `tag number ${i}`),
    order: 1,
    related: ["AFN-001", "AFN-002", "AFN-003", "AFN-004", "AFN-005", "AFN-006", "AFN-950"],
    sections: { decision: long(900), invariant: long(900), rejectedShortcut: long(900), evidence: long(900), claimBoundary: long(900), notes: long(900) },
  });
  const site = view.site;
  const withBig = viewOf([big, ...view.notes], site, view.commit);
  const capsule = buildCapsule(big, withBig, urls);

  it(`still fits in ${CAPSULE_BUDGET} tokens`, () => {
    expect(tokens(capsuleMarkdown(capsule))).toBeLessThanOrEqual(CAPSULE_BUDGET);
    expect(capsule.open_full_note.when).toMatch(/Decision, .*whole/);
  });

  it("names only published related notes: a related draft stays invisible", () => {
    expect(capsule.related.map((r) => r.id)).not.toContain("AFN-950");
    expect(capsule.related.length).toBeLessThanOrEqual(5);
    expect(capsule.open_full_note.when).toMatch(/all 6 related notes/);
  });
});
