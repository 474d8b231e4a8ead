import { describe, expect, it } from "vitest";
import { checkTransition } from "@/lib/rules/status-machine";
import type { Note } from "@/lib/notes/schema";
import { deriveReviewState, standingVerdicts, verdictState } from "./derive";
import { recordPath, reviewRecordSchema, type ReviewRecord } from "./records";

/** Deriving a review from its records: what reviewers and authors see, and what the status machine is told. */

const R1 = "1".repeat(40);
const R2 = "2".repeat(40);
const rita = { id: "rita", name: "rita" };
const ada = { id: "ada", name: "ada" };
let n = 0;
const rec = (r: Record<string, unknown>): ReviewRecord =>
  reviewRecordSchema.parse({ v: 1, id: (++n).toString(16).padStart(12, "0"), at: `2025-01-01T00:00:${String(n % 60).padStart(2, "0")}.000Z`, ...r });

const note = (evidence: string): Note =>
  ({
    id: "AFN-030",
    title: "t",
    summary: "s",
    status: "hypothesis",
    phase: "6 architecture",
    tags: [],
    related: [],
    boundaries: [],
    order: 30,
    sections: { decision: "d", invariant: "i", rejectedShortcut: "r", evidence, claimBoundary: "c", notes: "" },
  }) as unknown as Note;

const EVIDENCE = "- a test that fails when the mask is ignored\n- a trace of loads";

describe("threads", () => {
  const thread = rec({ kind: "thread", by: rita, section: "evidence", revision: R1, anchor: EVIDENCE, text: "Which test?" });

  it("is open, with its opening comment, until resolved; reopening opens it again", () => {
    const reply = rec({ kind: "reply", by: ada, thread: thread.id, text: "The mask test." });
    const resolve = rec({ kind: "resolve", by: rita, thread: thread.id });
    const ctx = { currentRevision: R1, currentNote: note(EVIDENCE) };
    expect(deriveReviewState([thread, reply], ctx).threads[0]).toMatchObject({
      resolved: false,
      comments: [{ text: "Which test?" }, { text: "The mask test.", by: ada }],
    });
    expect(deriveReviewState([thread, reply, resolve], ctx).threads[0]?.resolved).toBe(true);
    const reopened = deriveReviewState([thread, reply, resolve, rec({ kind: "reopen", by: ada, thread: thread.id })], ctx).threads[0];
    expect(reopened?.resolved).toBe(false);
    expect(reopened?.resolutions.map((r) => `${r.action} by ${r.by.id}`)).toEqual(["resolve by rita", "reopen by ada"]);
  });

  it("keeps every earlier text of an edited comment, and ignores an edit by anyone but its writer", () => {
    const e1 = rec({ kind: "edit", by: rita, thread: thread.id, comment: thread.id, text: "Which test, exactly?" });
    const e2 = rec({ kind: "edit", by: rita, thread: thread.id, comment: thread.id, text: "Which test fails?" });
    const forged = rec({ kind: "edit", by: ada, thread: thread.id, comment: thread.id, text: "Looks fine." });
    const review = deriveReviewState([thread, e1, e2, forged], { currentRevision: R1, currentNote: note(EVIDENCE) });
    const comment = review.threads[0]?.comments[0];
    expect(comment?.text).toBe("Which test fails?");
    expect(comment?.history.map((h) => h.text)).toEqual(["Which test?", "Which test, exactly?"]);
    expect(comment?.history[1]?.at).toBe(e1.at);
    expect(comment?.editedAt).toBe(e2.at);
    expect(review.problems).toEqual([expect.stringMatching(/by ada of a comment written by rita is ignored/)]);
  });

  it("is outdated once its section reads differently, and still shows what it was about", () => {
    const changed = deriveReviewState([thread], { currentRevision: R2, currentNote: note(`${EVIDENCE}\n- a benchmark`) }).threads[0];
    expect(changed).toMatchObject({ outdated: true, anchor: EVIDENCE, revision: R1 });
    // A new revision that leaves this section alone (another section changed) does not outdate it.
    expect(deriveReviewState([thread], { currentRevision: R2, currentNote: note(EVIDENCE) }).threads[0]?.outdated).toBe(false);
  });

  it("on a quoted passage is outdated only when the passage is gone", () => {
    const quoted = rec({ kind: "thread", by: rita, section: "evidence", quote: "a trace of loads", revision: R1, anchor: EVIDENCE, text: "Attach it." });
    const kept = deriveReviewState([quoted], { currentRevision: R2, currentNote: note(`- new first line\n${EVIDENCE}`) }).threads[0];
    const gone = deriveReviewState([quoted], { currentRevision: R2, currentNote: note("- a test that fails when the mask is ignored") }).threads[0];
    expect(kept?.outdated).toBe(false);
    expect(gone).toMatchObject({ outdated: true, quote: "a trace of loads" });
  });

  it("skips a reply to a thread that does not exist, saying so", () => {
    const review = deriveReviewState([rec({ kind: "reply", by: ada, thread: "ffffffffffff", text: "?" })], { currentRevision: R1, currentNote: null });
    expect(review.threads).toEqual([]);
    expect(review.problems[0]).toMatch(/thread ffffffffffff, which does not exist/);
  });
});

describe("verdicts", () => {
  const base = {
    note: note(EVIDENCE),
    to: "verified-checkpoint" as const,
    revisionAuthors: ["ada"],
    actor: { id: "ada", role: "author" as const },
    publishedIds: new Set<string>(),
  };

  it("count for their revision only: a new save makes them stale, and the status machine says an earlier approval does not cover it", () => {
    const approve = rec({ kind: "verdict", by: rita, revision: R1, verdict: "approve" });
    const onR1 = deriveReviewState([approve], { currentRevision: R1, currentNote: note(EVIDENCE), revisionAuthors: ["ada"] });
    expect(onR1.verdicts[0]?.stale).toBe(false);
    expect(verdictState(onR1)).toBe("approved");
    expect(checkTransition({ ...base, revision: R1, reviews: onR1.state }).allowed).toBe(true);

    const onR2 = deriveReviewState([approve], { currentRevision: R2, currentNote: note(EVIDENCE), revisionAuthors: ["ada"] });
    expect(onR2.verdicts[0]?.stale).toBe(true);
    expect(verdictState(onR2)).toBe("awaiting");
    const refused = checkTransition({ ...base, revision: R2, reviews: onR2.state });
    expect(refused.allowed).toBe(false);
    expect(refused.unmet.join("\n")).toMatch(/approval of an earlier revision \(1111111\) does not cover 2222222/);
  });

  it("a reviewer's later verdict on the same revision replaces the earlier one", () => {
    const changes = rec({ kind: "verdict", by: rita, revision: R1, verdict: "request-changes", summary: "Evidence is thin." });
    const approve = rec({ kind: "verdict", by: rita, revision: R1, verdict: "approve" });
    const blocked = deriveReviewState([changes], { currentRevision: R1, currentNote: note(EVIDENCE) });
    expect(verdictState(blocked)).toBe("changes-requested");
    expect(checkTransition({ ...base, revision: R1, reviews: blocked.state }).unmet).toContain(
      "rita requested changes on revision 1111111 and has not approved a later revision or withdrawn the request; make the changes and ask rita for a review, or ask them to withdraw it",
    );

    const answered = deriveReviewState([changes, approve], { currentRevision: R1, currentNote: note(EVIDENCE) });
    expect(answered.verdicts.map((v) => [v.verdict, v.replaced])).toEqual([
      ["request-changes", true],
      ["approve", false],
    ]);
    expect(standingVerdicts(answered).map((v) => v.verdict)).toEqual(["approve"]);
    expect(checkTransition({ ...base, revision: R1, reviews: answered.state }).allowed).toBe(true);
  });

  it("a request for changes outlives a new save: only the reviewer's later approval or withdrawal lifts it", () => {
    const changes = rec({ kind: "verdict", by: rita, revision: R1, verdict: "request-changes" });
    const saved = deriveReviewState([changes], { currentRevision: R2, currentNote: note(EVIDENCE) });
    expect(verdictState(saved)).toBe("changes-requested");
    expect(checkTransition({ ...base, revision: R2, reviews: saved.state }).allowed).toBe(false);

    const approvedLater = deriveReviewState([changes, rec({ kind: "verdict", by: rita, revision: R2, verdict: "approve" })], {
      currentRevision: R2,
      currentNote: note(EVIDENCE),
    });
    expect(verdictState(approvedLater)).toBe("approved");

    const withdrawn = deriveReviewState([changes, rec({ kind: "withdraw", by: rita, verdict: changes.id })], {
      currentRevision: R2,
      currentNote: note(EVIDENCE),
    });
    expect(withdrawn.verdicts[0]?.withdrawnAt).toBeTruthy();
    expect(verdictState(withdrawn)).toBe("awaiting");
  });

  it("a withdrawal by anyone but the request's reviewer, or of an approval, is ignored and reported", () => {
    const changes = rec({ kind: "verdict", by: rita, revision: R1, verdict: "request-changes" });
    const approve = rec({ kind: "verdict", by: rita, revision: R1, verdict: "approve" });
    const review = deriveReviewState(
      [changes, rec({ kind: "withdraw", by: ada, verdict: changes.id }), rec({ kind: "withdraw", by: rita, verdict: approve.id }), approve],
      {
        currentRevision: R1,
        currentNote: note(EVIDENCE),
      },
    );
    expect(review.problems).toHaveLength(2);
    expect(review.verdicts.every((v) => !v.withdrawnAt)).toBe(true);
  });

  it("review requests are listed with whom they ask", () => {
    const ask = rec({ kind: "request", by: ada, revision: R1, reviewers: [rita], purpose: "publish", text: "Please look at the evidence." });
    const review = deriveReviewState([ask], { currentRevision: R1, currentNote: note(EVIDENCE) });
    expect(review.requests).toEqual([
      { id: ask.id, by: ada, at: ask.at, revision: R1, reviewers: [rita], purpose: "publish", text: "Please look at the evidence." },
    ]);
    expect(recordPath(ask)).toMatch(/^requests\//);
  });

  it("by someone who wrote a revision is marked as a self-verdict and refused by the status machine", () => {
    const self = rec({ kind: "verdict", by: ada, revision: R1, verdict: "approve" });
    const review = deriveReviewState([self], { currentRevision: R1, currentNote: note(EVIDENCE), revisionAuthors: ["ada"] });
    expect(review.verdicts[0]?.selfVerdict).toBe(true);
    expect(verdictState(review)).toBe("awaiting");
    expect(checkTransition({ ...base, revision: R1, reviews: review.state }).unmet).toContain(
      "an approval by its own author does not count (ada wrote this note)",
    );
  });
});

describe("record files", () => {
  it("are named by thread and time, so a listing reads in order", () => {
    const t = rec({ kind: "thread", by: rita, section: "notes", revision: R1, anchor: "", text: "x" });
    expect(recordPath(t)).toBe(`threads/${t.id}/${t.at.replace(/[-:.]/g, "")}-${t.id}.json`);
    expect(recordPath(rec({ kind: "verdict", by: rita, revision: R1, verdict: "approve" }))).toMatch(/^verdicts\/\d{8}T\d{9}Z-[0-9a-f]{12}\.json$/);
  });
});
