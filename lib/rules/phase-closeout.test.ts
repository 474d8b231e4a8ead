import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseNote } from "@/lib/notes/markdown";
import { parsePhase, phaseSchema, serializePhase, type Phase, type PhaseInput } from "@/lib/phases/schema";
import { acceptWrite } from "./accept-write";
import { checkNotePhase, checkPhaseChange, deltaOf, proposeClose, proposeReopen, type PhaseNoteFact } from "./phase-closeout";

const author = { id: "ada", role: "author" as const };
const reviewer = { id: "grace", role: "reviewer" as const };
const phase = (p: Partial<PhaseInput> = {}): Phase =>
  phaseSchema.parse({ name: "6 architecture", slug: "6-architecture", status: "open", opened: "2026-10-01", ...p });
const fact = (id: string, status: PhaseNoteFact["status"], verifiedAt: string | null, phaseName = "6 architecture"): PhaseNoteFact => ({
  id,
  phase: phaseName,
  status,
  verifiedAt,
});
const WHY = "The phase only moved code between files; no architecture decision changed.";

/** A close as the studio asks for it: the proposed phase, judged by the acceptance function. */
async function close(p: Phase, notes: PhaseNoteFact[], actor: typeof author | typeof reviewer, noDeltaWhy?: string) {
  const next = proposeClose({ phase: p, notes, actor, today: "2026-12-02", noDeltaWhy });
  const v = await acceptWrite({ kind: "phase-close", before: p, after: next, actor, context: { facts: notes } });
  return { allowed: v.allowed, unmet: v.findings.map((f) => f.message), closeout: v.allowed ? next.closeout : undefined, delta: deltaOf(p, notes) };
}
const reopen = async (p: Phase, actor: typeof author | typeof reviewer, reason: string) => {
  const v = await acceptWrite({ kind: "phase-reopen", before: p, after: proposeReopen(p, actor, "2026-12-02", reason), actor, context: { facts: [] } });
  return { allowed: v.allowed, unmet: v.findings.map((f) => f.message) };
};

describe("closing a phase", () => {
  const cases: {
    name: string;
    notes: PhaseNoteFact[];
    why?: string;
    actor?: typeof author | typeof reviewer;
    p?: Partial<PhaseInput>;
    allowed: boolean;
    unmet?: RegExp;
    kind?: "delta" | "no-delta";
    delta?: string[];
  }[] = [
    {
      name: "a note verified while open is the delta",
      notes: [fact("AFN-016", "verified-checkpoint", "2026-11-02T10:00:00Z")],
      allowed: true,
      kind: "delta",
      delta: ["AFN-016"],
    },
    {
      name: "structural decisions count too",
      notes: [fact("AFN-003", "verified-structural", "2026-10-01T00:00:00Z")],
      allowed: true,
      kind: "delta",
      delta: ["AFN-003"],
    },
    {
      name: "a note verified before the phase opened is not its delta",
      notes: [fact("AFN-016", "verified-checkpoint", "2026-09-30T23:00:00Z")],
      allowed: false,
      unmet: /no decision delta/,
    },
    { name: "a hypothesis is not a delta", notes: [fact("AFN-019", "hypothesis", null)], allowed: false, unmet: /no decision delta/ },
    {
      name: "a verified note of another phase is not this phase's delta",
      notes: [fact("AFN-010", "verified-checkpoint", "2026-11-02T00:00:00Z", "5")],
      allowed: false,
      unmet: /no decision delta/,
    },
    {
      name: "superseded and retracted notes are not a delta",
      notes: [fact("AFN-016", "superseded", "2026-11-02T00:00:00Z"), fact("AFN-017", "retracted", "2026-11-02T00:00:00Z")],
      allowed: false,
      unmet: /no decision delta/,
    },
    { name: "no delta, with a worded record", notes: [], why: WHY, allowed: true, kind: "no-delta" },
    { name: "no delta, with too few words", notes: [], why: "nothing", allowed: false, unmet: /at least 20 characters/ },
    {
      name: "a reviewer cannot close",
      notes: [fact("AFN-016", "verified-checkpoint", "2026-11-02T00:00:00Z")],
      actor: reviewer,
      allowed: false,
      unmet: /only authors close/,
    },
    {
      name: "a closed phase cannot close again",
      notes: [fact("AFN-016", "verified-checkpoint", "2026-11-02T00:00:00Z")],
      p: { status: "closed", closed: "2026-11-03", closeout: { kind: "no-delta", by: "ada", at: "2026-11-03", why: WHY } },
      allowed: false,
      unmet: /already closed/,
    },
    {
      name: "no opened date: any verification counts",
      notes: [fact("AFN-016", "verified-checkpoint", "2020-01-01T00:00:00Z")],
      p: { opened: undefined },
      allowed: true,
      kind: "delta",
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const v = await close(phase(c.p), c.notes, c.actor ?? author, c.why);
      expect(v.allowed).toBe(c.allowed);
      if (c.unmet) expect(v.unmet.join("\n")).toMatch(c.unmet);
      if (c.kind) expect(v.closeout?.kind).toBe(c.kind);
      if (c.delta) expect(v.delta).toEqual(c.delta);
      if (!c.allowed) expect(v.closeout).toBeUndefined();
    });
  }

  it("lists every unmet requirement at once", async () => {
    const v = await close(phase(), [], reviewer, "nothing");
    expect(v.unmet).toEqual(["only authors close a phase", expect.stringMatching(/at least 20 characters/)]);
    // Closing a closed phase is not a close at all: who asks, and that it is closed, is all there is to say.
    const again = await close(
      phase({ status: "closed", closed: "2026-11-03", closeout: { kind: "no-delta", by: "ada", at: "2026-11-03", why: WHY } }),
      [],
      reviewer,
    );
    expect(again.unmet).toEqual(["only authors close a phase", "phase 6 architecture is already closed"]);
  });

  it("reopens only a closed phase, by an author, with a reason", async () => {
    const closed = phase({ status: "closed", closed: "2026-11-03", closeout: { kind: "no-delta", by: "ada", at: "2026-11-03", why: WHY } });
    expect((await reopen(closed, author, "AFN-016's evidence did not hold")).allowed).toBe(true);
    expect((await reopen(closed, author, "  ")).unmet).toEqual(["reopening a closed phase needs a reason"]);
    expect((await reopen(phase(), reviewer, "x")).unmet).toEqual(["only authors reopen a phase", "phase 6 architecture is not closed"]);
  });
});

describe("a phase file changed by a commit", () => {
  const open = phase();
  const closedWith = (closeout: PhaseInput["closeout"]) => phase({ status: "closed", closed: "2026-12-02", closeout });
  const verified = [fact("AFN-016", "verified-checkpoint", "2026-11-02T00:00:00Z")];

  it("accepts a close whose delta holds, and one with a no-delta record", () => {
    expect(checkPhaseChange(open, closedWith({ kind: "delta", notes: ["AFN-016"], by: "ada", at: "2026-12-02" }), verified)).toEqual([]);
    expect(checkPhaseChange(open, closedWith({ kind: "no-delta", by: "ada", at: "2026-12-02", why: WHY }), [])).toEqual([]);
  });

  it("refuses a delta that names a note not verified in the phase", () => {
    const problems = checkPhaseChange(open, closedWith({ kind: "delta", notes: ["AFN-016", "AFN-019"], by: "ada", at: "2026-12-02" }), verified);
    expect(problems.join()).toMatch(/AFN-019 as its delta/);
  });

  it("cannot express a close without a record: the file itself is invalid", () => {
    const r = parsePhase("name: 6 architecture\nslug: 6-architecture\nstatus: closed\nclosed: 2026-12-02\n");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0]?.message).toMatch(/closeout record/);
  });

  it("refuses a reopening without a reason and a rewritten closeout", () => {
    const closed = closedWith({ kind: "no-delta", by: "ada", at: "2026-12-02", why: WHY });
    expect(checkPhaseChange(closed, open, []).join()).toMatch(/reopened without a reason/);
    expect(checkPhaseChange(closed, phase({ reopenings: [{ by: "ada", at: "2026-12-03", reason: "new evidence" }] }), [])).toEqual([]);
    expect(checkPhaseChange(closed, closedWith({ kind: "no-delta", by: "ada", at: "2026-12-02", why: `${WHY} Edited.` }), []).join()).toMatch(
      /changed after closing/,
    );
  });

  it("keeps the delta to notes verified after the phase opened", () => {
    expect(deltaOf(open, [...verified, fact("AFN-017", "verified-checkpoint", "2026-01-01T00:00:00Z")])).toEqual(["AFN-016"]);
  });
});

describe("the seed's phases", () => {
  const root = path.resolve(__dirname, "../../content");
  const phases = fs.readdirSync(path.join(root, "phases")).map((f) => {
    const r = parsePhase(fs.readFileSync(path.join(root, "phases", f), "utf8"));
    if (!r.ok) throw new Error(`${f}: ${JSON.stringify(r.errors)}`);
    expect(f).toBe(`${r.phase.slug}.yaml`);
    return r.phase;
  });

  it("every seed note names a known phase, and every phase has a note", () => {
    const notes = fs.readdirSync(path.join(root, "notes")).map((f) => {
      const r = parseNote(fs.readFileSync(path.join(root, "notes", f), "utf8"));
      if (!r.ok) throw new Error(f);
      return r.note;
    });
    for (const note of notes) expect(checkNotePhase(note, phases)).toEqual([]);
    for (const p of phases) expect(notes.some((n) => n.phase === p.name)).toBe(true);
    expect(checkNotePhase({ phase: "7" }, phases)[0]).toMatch(/unknown phase "7"/);
  });

  it("round-trips through the file format", () => {
    for (const p of phases) expect(parsePhase(serializePhase(p))).toEqual({ ok: true, phase: p });
  });
});
