import { describe, expect, it } from "vitest";
import type { Note } from "@/lib/notes/schema";
import type { Phase } from "@/lib/phases/schema";
import type { ReviewRecord } from "@/lib/review/records";
import { eventsOf, type CommittedWrite } from "./events";

/** Which committed writes become which events, and what their chat line says (pure, a table). */

const SITE = "https://notes.example.org";
const ada = { id: "ada", name: "Ada" };
const rita = { id: "rita", name: "Rita" };
const C = "c".repeat(40);
const R = "a".repeat(40);
const note = (status: Note["status"]) => ({ id: "AFN-022", title: "Admission control fails closed", status }) as Note;
const record = (r: Partial<ReviewRecord> & { kind: ReviewRecord["kind"] }) =>
  ({ v: 1, id: "0123456789ab", at: "2026-12-06T00:00:00Z", by: rita, ...r }) as ReviewRecord;
const review = (r: ReviewRecord, published = false): CommittedWrite => ({
  kind: "review",
  actor: rita,
  commit: C,
  noteId: "AFN-022",
  note: note("draft"),
  published,
  record: r,
});
const one = (w: CommittedWrite) => eventsOf(w, SITE, "2026-12-06T00:00:00Z", () => "event-id");

describe("events of a committed write", () => {
  it.each<[string, CommittedWrite, string | null, string | null]>([
    [
      "a first publish",
      { kind: "publish", actor: ada, commit: C, note: note("hypothesis"), before: null },
      "note.published",
      `Ada published AFN-022 “Admission control fails closed” as hypothesis: ${SITE}/notes/AFN-022`,
    ],
    [
      "a later publish",
      { kind: "publish", actor: ada, commit: C, note: note("verified-checkpoint"), before: note("hypothesis") },
      "note.published",
      `Ada published a new version of AFN-022 “Admission control fails closed” as verified checkpoint: ${SITE}/notes/AFN-022`,
    ],
    [
      "a status change",
      { kind: "status-change", actor: ada, commit: C, before: note("draft"), after: note("hypothesis"), published: false },
      "note.status_changed",
      `Ada moved AFN-022 “Admission control fails closed” from draft to hypothesis: ${SITE}/studio/notes/AFN-022`,
    ],
    [
      "a status change to the same status",
      { kind: "status-change", actor: ada, commit: C, before: note("draft"), after: note("draft"), published: false },
      null,
      null,
    ],
    [
      "a review request of anyone",
      review(record({ kind: "request", revision: R, reviewers: [], purpose: "publish" })),
      "review.requested",
      `Rita asked any reviewer to review AFN-022 “Admission control fails closed”: ${SITE}/studio/notes/AFN-022/review`,
    ],
    [
      "a request for changes",
      review(record({ kind: "verdict", revision: R, verdict: "request-changes", summary: "Evidence is thin." })),
      "review.verdict",
      `Rita requested changes on AFN-022 “Admission control fails closed”: “Evidence is thin.” ${SITE}/studio/notes/AFN-022/review`,
    ],
    [
      "a reply",
      review(record({ kind: "reply", thread: "ffffffffffff", text: "Fixed   in\nthe kernel." })),
      "review.comment",
      `Rita commented on AFN-022 “Admission control fails closed”: “Fixed in the kernel.” ${SITE}/studio/notes/AFN-022/review#thread-ffffffffffff`,
    ],
    ["a resolved thread", review(record({ kind: "resolve", thread: "ffffffffffff" })), null, null],
    ["an edited comment", review(record({ kind: "edit", thread: "ffffffffffff", comment: "eeeeeeeeeeee", text: "x" })), null, null],
    ["a withdrawn verdict", review(record({ kind: "withdraw", verdict: "eeeeeeeeeeee" })), null, null],
    [
      "a phase closed with its delta",
      {
        kind: "phase-close",
        actor: ada,
        commit: C,
        phase: { name: "6 architecture", slug: "6-architecture", closeout: { kind: "delta", notes: ["AFN-016"], by: "ada", at: "2026-12-06" } } as Phase,
      },
      "phase.closed",
      `Ada closed phase 6 architecture with decision delta AFN-016: ${SITE}/phases/6-architecture`,
    ],
  ])("%s", (_, write, type, text) => {
    const events = one(write);
    expect(events.map((e) => e.type)).toEqual(type ? [type] : []);
    if (text) expect(events[0]).toMatchObject({ id: "event-id", text, revision: C, site: SITE, actor: write.actor });
  });

  it("names the public page only of a published note", () => {
    expect(one(review(record({ kind: "thread", section: "decision", revision: R, anchor: "", text: "Why?" })))[0]).toMatchObject({
      url: null,
      note: { url: null },
    });
    expect(one(review(record({ kind: "thread", section: "decision", revision: R, anchor: "", text: "Why?" }), true))[0]).toMatchObject({
      url: `${SITE}/notes/AFN-022`,
      note: { url: `${SITE}/notes/AFN-022`, studio_url: `${SITE}/studio/notes/AFN-022` },
    });
  });
});
