import { describe, expect, it } from "vitest";
import { noteSchema, STATUSES, type Note, type Status } from "@/lib/notes/schema";
import { actionsFrom, checkBoundaryChange, checkPublish, checkTransition, STATUS_MACHINE, type ReviewState, type TransitionInput } from "./status-machine";

const HEAD = "3f9a1c27d0e4b5a6c7d8e9f0a1b2c3d4e5f6a7b8";
const OLDER = "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d";

function note(status: Status, patch: Partial<Note> = {}): Note {
  return noteSchema.parse({
    id: "AFN-030",
    title: "Admission before allocation",
    summary: "Every bad artifact fails before the GPU is touched.",
    status,
    phase: "Phase 6 architecture",
    order: 30,
    superseded_by: "AFN-031",
    sections: {
      decision: "Admit on the CPU first.",
      invariant: "No GPU symbol is reachable before admission.",
      rejectedShortcut: "Lazy validation during graph build.",
      evidence: "Loader tests at checkpoint c12.",
      claimBoundary: "Structure only; no performance claim.",
      notes: "",
    },
    ...patch,
  });
}

const approvedByBea: ReviewState = { verdicts: [{ reviewer: "bea", revision: HEAD, verdict: "approve" }] };

/**
 * Everything any route could ask for is present: complete sections, a fresh outside approval, a
 * reason, and a note that is published (on main) unless the move is the one back to draft, which
 * only a note nobody could read yet makes.
 */
function complete(from: Status, to: Status, patch: Partial<TransitionInput> = {}): TransitionInput {
  return {
    note: note(from),
    to,
    revision: HEAD,
    revisionAuthors: ["ada"],
    reviews: approvedByBea,
    actor: { id: "ada", role: "author" },
    reason: "The loader measured the wrong tensor.",
    publishedIds: new Set(to === "draft" ? ["AFN-031"] : ["AFN-031", "AFN-030"]),
    ...patch,
  };
}

function withSections(from: Status, sections: Partial<Note["sections"]>): Note {
  const n = note(from);
  return { ...n, sections: { ...n.sections, ...sections } };
}

// Rows: from. Columns: to, in the order draft, hypothesis, verified-checkpoint, verified-structural,
// superseded, retracted. Y = allowed for a complete, approved note; . = refused whatever is supplied.
const EXPECTED: Record<Status, string> = {
  draft: /*                 */ ". Y . . . .",
  hypothesis: /*            */ "Y . Y Y Y Y",
  "verified-checkpoint": /* */ ". . . Y Y Y",
  "verified-structural": /* */ ". . Y . Y Y",
  superseded: /*            */ ". . . . . Y",
  retracted: /*             */ ". . . . . .",
};

describe("every status change, for a complete approved note", () => {
  const rows = STATUSES.flatMap((from) => STATUSES.map((to, i) => ({ from, to, allowed: EXPECTED[from].split(" ")[i] === "Y" })));
  it("the machine's own table has a route for each of the 36 pairs and allows exactly the expected ones", () => {
    const table = Object.entries(STATUS_MACHINE).flatMap(([from, row]) => Object.entries(row).map(([to, route]) => `${from} → ${to}: ${route.allowed}`));
    expect(table).toHaveLength(STATUSES.length * STATUSES.length);
    expect(table.sort()).toEqual(rows.map(({ from, to, allowed }) => `${from} → ${to}: ${allowed}`).sort());
  });

  it.each(rows)("$from → $to: allowed $allowed", ({ from, to, allowed }) => {
    const v = checkTransition(complete(from, to));
    expect(v.allowed).toBe(allowed);
    if (allowed) expect(v.unmet).toEqual([]);
    else expect(v.unmet.length).toBeGreaterThan(0);
  });

  it.each(rows.filter((r) => !r.allowed))("$from → $to is refused for a reviewer too, with both reasons", ({ from, to }) => {
    const v = checkTransition(complete(from, to, { actor: { id: "bea", role: "reviewer" } }));
    expect(v.allowed).toBe(false);
    expect(v.unmet).toContain("only authors change a note's status");
    expect(v.unmet.length).toBe(2);
  });

  it("the studio offers exactly the allowed changes, with the agreed labels", () => {
    for (const from of STATUSES) {
      const offered = actionsFrom(from)
        .map((a) => a.to)
        .sort();
      expect(offered).toEqual(
        rows
          .filter((r) => r.from === from && r.allowed)
          .map((r) => r.to)
          .sort(),
      );
    }
    const labels = (from: Status) => Object.fromEntries(actionsFrom(from).map((a) => [a.to, a.label]));
    expect(labels("draft")).toEqual({ hypothesis: "Propose as hypothesis" });
    expect(labels("hypothesis")).toMatchObject({
      "verified-checkpoint": "Promote to verified checkpoint",
      "verified-structural": "Promote to verified structural decision",
      superseded: "Supersede…",
      retracted: "Retract…",
    });
    expect(actionsFrom("hypothesis").at(-1)?.to).toBe("draft");
    expect(actionsFrom("retracted")).toEqual([]);
  });
});

describe("a note never published", () => {
  it.each(["retracted", "superseded"] as const)("is not %s: it is discarded instead", (to) => {
    const v = checkTransition(complete("hypothesis", to, { publishedIds: new Set(["AFN-031"]), note: { ...note("hypothesis"), superseded_by: "AFN-031" } }));
    expect(v.allowed).toBe(false);
    expect(v.unmet).toEqual(["AFN-030 was never published, so no reader needs to be told: discard the draft instead"]);
  });
});

describe("draft → hypothesis", () => {
  it.each([
    ["invariant", /Invariant section is empty/],
    ["claimBoundary", /Claim boundary section is empty/],
  ] as const)("needs the %s section", (key, message) => {
    const v = checkTransition(complete("draft", "hypothesis", { note: withSections("draft", { [key]: "  \n" }) }));
    expect(v.allowed).toBe(false);
    expect(v.unmet).toEqual([expect.stringMatching(message)]);
  });

  it("does not need evidence, a rejected shortcut or an approval yet", () => {
    const n = withSections("draft", { decision: "", evidence: "", rejectedShortcut: "" });
    expect(checkTransition(complete("draft", "hypothesis", { note: n, reviews: { verdicts: [] } })).allowed).toBe(true);
  });

  it("lists both missing sections and the role together", () => {
    const v = checkTransition(
      complete("draft", "hypothesis", {
        note: withSections("draft", { invariant: "", claimBoundary: "" }),
        actor: { id: "bea", role: "reviewer" },
      }),
    );
    expect(v.unmet).toHaveLength(3);
  });

  it("refuses going straight to verified, pointing at hypothesis", () => {
    const v = checkTransition(complete("draft", "verified-structural"));
    expect(v.unmet.join()).toMatch(/hypothesis first/);
  });
});

describe("hypothesis → verified", () => {
  const promote = (patch: Partial<TransitionInput> = {}) => checkTransition(complete("hypothesis", "verified-checkpoint", patch));

  it.each([
    ["decision", "Decision"],
    ["invariant", "Invariant"],
    ["rejectedShortcut", "Rejected shortcut"],
    ["evidence", "Evidence"],
    ["claimBoundary", "Claim boundary"],
  ] as const)("needs the %s section", (key, heading) => {
    const v = promote({ note: withSections("hypothesis", { [key]: "" }) });
    expect(v.allowed).toBe(false);
    expect(v.unmet).toEqual([`the ${heading} section is empty`]);
  });

  it("does not need the Notes section", () => {
    expect(promote({ note: withSections("hypothesis", { notes: "" }) }).allowed).toBe(true);
  });

  it("needs an approval of the revision", () => {
    const v = promote({ reviews: { verdicts: [] } });
    expect(v.unmet).toEqual(["no approval of revision 3f9a1c2 by a reviewer other than its authors"]);
  });

  it("does not count an approval by the note's own author", () => {
    const v = promote({ reviews: { verdicts: [{ reviewer: "ada", revision: HEAD, verdict: "approve" }] } });
    expect(v.allowed).toBe(false);
    expect(v.unmet).toContain("no approval of revision 3f9a1c2 by a reviewer other than its authors");
    expect(v.unmet.join("\n")).toMatch(/an approval by its own author does not count \(ada/);
  });

  it("does not count a co-author's approval either", () => {
    const v = promote({ revisionAuthors: ["ada", "bea"] });
    expect(v.allowed).toBe(false);
    expect(v.unmet.join("\n")).toMatch(/its own author does not count \(bea/);
  });

  it("does not count an approval of an older revision", () => {
    const v = promote({ reviews: { verdicts: [{ reviewer: "bea", revision: OLDER, verdict: "approve" }] } });
    expect(v.allowed).toBe(false);
    expect(v.unmet.join("\n")).toMatch(/earlier revision \(9e8d7c6\) does not cover 3f9a1c2/);
  });

  it("is blocked by a standing request for changes, on this revision or an earlier one, even beside an approval", () => {
    for (const revision of [HEAD, OLDER]) {
      const verdicts = [...approvedByBea.verdicts, { reviewer: "cy", name: "Cy", revision, verdict: "request-changes" as const, at: "2026-12-01T10:00:00Z" }];
      const v = promote({ reviews: { verdicts } });
      expect(v.allowed).toBe(false);
      expect(v.unmet).toEqual([
        `Cy requested changes on revision ${revision.slice(0, 7)} and has not approved a later revision or withdrawn the request; make the changes and ask Cy for a review, or ask them to withdraw it`,
      ]);
    }
  });

  it("is not blocked by a withdrawn request, nor by one its reviewer answered with a later approval", () => {
    const verdicts = [
      ...approvedByBea.verdicts,
      { reviewer: "cy", revision: HEAD, verdict: "request-changes" as const, withdrawn: true, at: "2026-12-01T10:00:00Z" },
      { reviewer: "dee", revision: OLDER, verdict: "request-changes" as const, at: "2026-12-01T10:00:00Z" },
      { reviewer: "dee", revision: HEAD, verdict: "approve" as const, at: "2026-12-02T10:00:00Z" },
    ];
    expect(promote({ reviews: { verdicts } })).toEqual({ allowed: true, unmet: [] });
  });

  it("is blocked again when the reviewer who approved later asks for changes", () => {
    const verdicts = [
      { reviewer: "bea", revision: HEAD, verdict: "approve" as const, at: "2026-12-01T10:00:00Z" },
      { reviewer: "dee", revision: HEAD, verdict: "approve" as const, at: "2026-12-01T11:00:00Z" },
      { reviewer: "dee", revision: HEAD, verdict: "request-changes" as const, at: "2026-12-02T10:00:00Z" },
    ];
    // The state keeps each reviewer's latest verdict per revision; here dee's two are on one revision.
    const v = promote({ reviews: { verdicts: verdicts.slice(0, 1).concat(verdicts.slice(2)) } });
    expect(v.allowed).toBe(false);
    expect(v.unmet[0]).toMatch(/^dee requested changes on revision 3f9a1c2/);
  });

  it("needs as many approvals as REVIEW_APPROVALS asks for, each by a reviewer who did not write it", () => {
    const two = { verdicts: [...approvedByBea.verdicts, { reviewer: "cy", revision: HEAD, verdict: "approve" as const }] };
    expect(promote({ reviews: approvedByBea, requiredApprovals: 2 }).unmet).toEqual([
      "1 of the 2 approvals of revision 3f9a1c2 this archive requires (REVIEW_APPROVALS) by reviewers other than its authors",
    ]);
    expect(promote({ reviews: two, requiredApprovals: 2 })).toEqual({ allowed: true, unmet: [] });
    expect(promote({ reviews: two, requiredApprovals: 2, revisionAuthors: ["ada", "cy"] }).allowed).toBe(false);
  });

  it("refuses a reviewer who tries to promote", () => {
    const v = promote({ actor: { id: "bea", role: "reviewer" } });
    expect(v.unmet).toEqual(["only authors change a note's status"]);
  });

  it("lists every missing requirement at once", () => {
    const empty = { decision: "", invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "" };
    const v = checkTransition(
      complete("hypothesis", "verified-structural", {
        note: withSections("hypothesis", empty),
        actor: { id: "bea", role: "reviewer" },
        reviews: {
          verdicts: [
            { reviewer: "ada", revision: HEAD, verdict: "approve" },
            { reviewer: "cy", revision: HEAD, verdict: "request-changes" },
          ],
        },
      }),
    );
    expect(v.allowed).toBe(false);
    const all = v.unmet.join("\n");
    for (const words of [
      "only authors change",
      "Decision section is empty",
      "Invariant section is empty",
      "Rejected shortcut section is empty",
      "Evidence section is empty",
      "Claim boundary section is empty",
      "no approval of revision 3f9a1c2",
      "its own author does not count",
      "cy requested changes",
    ]) {
      expect(all).toContain(words);
    }
    expect(v.unmet).toHaveLength(9);
  });

  it("asks for a fresh approval to move between checkpoint and structural", () => {
    const v = checkTransition(
      complete("verified-checkpoint", "verified-structural", {
        reviews: { verdicts: [{ reviewer: "bea", revision: OLDER, verdict: "approve" }] },
      }),
    );
    expect(v.allowed).toBe(false);
    expect(v.unmet.join()).toMatch(/no approval of revision 3f9a1c2/);
  });
});

describe("verified results stay verified", () => {
  it.each([
    ["verified-checkpoint", "hypothesis"],
    ["verified-checkpoint", "draft"],
    ["verified-structural", "hypothesis"],
    ["verified-structural", "draft"],
  ] as const)("%s → %s is refused and says what to do instead", (from, to) => {
    const v = checkTransition(complete(from, to));
    expect(v.unmet).toEqual([expect.stringMatching(/not un-verified.*supersede.*retract/)]);
  });

  it("a hypothesis goes back to draft only while unpublished", () => {
    const v = checkTransition(complete("hypothesis", "draft", { publishedIds: new Set(["AFN-031", "AFN-030"]) }));
    expect(v.allowed).toBe(false);
    expect(v.unmet.join()).toMatch(/AFN-030 is already published.*retract/);
  });

  it("the same status is not a change", () => {
    for (const s of STATUSES) {
      expect(checkTransition(complete(s, s)).unmet).toEqual([expect.stringContaining("already")]);
    }
  });
});

describe("supersede", () => {
  it.each(["hypothesis", "verified-checkpoint", "verified-structural"] as const)("%s needs superseded_by", (from) => {
    const v = checkTransition(complete(from, "superseded", { note: { ...note(from), superseded_by: undefined } }));
    expect(v.unmet).toEqual(["name the note that replaces this one (superseded by)"]);
  });

  it("needs the replacement to be published", () => {
    const v = checkTransition(complete("verified-checkpoint", "superseded", { publishedIds: new Set() }));
    expect(v.unmet).toEqual([expect.stringMatching(/AFN-031 is not a published note/)]);
  });

  it("refuses a note superseding itself, even if it is published", () => {
    const self = { ...note("verified-structural"), superseded_by: "AFN-030" };
    const v = checkTransition(complete("verified-structural", "superseded", { note: self, publishedIds: new Set(["AFN-030"]) }));
    expect(v.unmet).toEqual(["a note cannot supersede itself"]);
  });

  it("keeps a superseded note superseded, except for retraction", () => {
    expect(checkTransition(complete("superseded", "verified-checkpoint")).unmet.join()).toMatch(/superseded note is final/);
    expect(checkTransition(complete("superseded", "retracted")).allowed).toBe(true);
  });
});

describe("retract", () => {
  const published = ["hypothesis", "verified-checkpoint", "verified-structural", "superseded"] as const;

  it.each(published)("%s needs a reason", (from) => {
    for (const reason of [undefined, "", "   "]) {
      const v = checkTransition(complete(from, "retracted", { reason }));
      expect(v.unmet).toEqual(["a retraction needs a reason, which readers will see"]);
    }
  });

  it.each(published)("%s accepts the reason written in the note", (from) => {
    const n = { ...note(from), retraction_reason: "Measured the wrong tensor." };
    expect(checkTransition(complete(from, "retracted", { reason: undefined, note: n })).allowed).toBe(true);
  });

  it("a draft has nothing to retract, and a retracted note stays retracted", () => {
    expect(checkTransition(complete("draft", "retracted")).unmet.join()).toMatch(/nothing to retract/);
    expect(checkTransition(complete("retracted", "hypothesis")).unmet.join()).toMatch(/retracted note is final/);
  });
});

describe("bad input from a request", () => {
  it("answers an unknown status instead of throwing", () => {
    const v = checkTransition(complete("hypothesis", "published" as Status));
    expect(v.allowed).toBe(false);
    expect(v.unmet.join()).toMatch(/unknown status "published"/);
    expect(actionsFrom("nonsense" as Status)).toEqual([]);
  });
});

describe("boundaries", () => {
  it("adding a boundary is always allowed", () => {
    expect(checkBoundaryChange([], ["structural-only"])).toEqual({ allowed: true, unmet: [] });
    expect(checkBoundaryChange(["structural-only"], ["pinned-not-supported", "structural-only"])).toEqual({ allowed: true, unmet: [] });
  });

  it("removing one needs a reason, naming each removed boundary", () => {
    const v = checkBoundaryChange(["structural-only", "pinned-not-supported"], [], "  ");
    expect(v.allowed).toBe(false);
    expect(v.unmet).toEqual(['removing the "structural-only" boundary needs a reason', 'removing the "pinned, not supported" boundary needs a reason']);
  });

  it("removing one with a reason is allowed", () => {
    expect(checkBoundaryChange(["structural-only"], [], "Now measured on real codecs.").allowed).toBe(true);
  });
});

describe("publish", () => {
  it("refuses a draft", () => {
    expect(checkPublish(note("draft")).unmet).toEqual(["a draft is not published: propose it as a hypothesis first"]);
  });

  it("accepts every published status of a valid note", () => {
    for (const s of ["hypothesis", "verified-checkpoint", "verified-structural", "superseded"] as const) {
      expect(checkPublish(note(s))).toEqual({ allowed: true, unmet: [] });
    }
    expect(checkPublish(note("retracted", { retraction_reason: "Wrong tensor." })).allowed).toBe(true);
  });

  it("refuses an invalid note, saying which field", () => {
    const v = checkPublish({ ...note("hypothesis"), title: "", sections: { ...note("hypothesis").sections, evidence: "## Run\n" } });
    expect(v.unmet).toContain("title is empty");
    expect(v.unmet.join("\n")).toMatch(/Evidence contains a level-2 heading/);
  });

  it("refuses a superseded note with no successor and a retracted note with no reason", () => {
    expect(checkPublish({ ...note("superseded"), superseded_by: undefined }).unmet).toEqual(["a superseded note must name the note that replaces it"]);
    expect(checkPublish(note("retracted")).unmet).toEqual(["a retracted note must say why it was retracted"]);
  });
});
