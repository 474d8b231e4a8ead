import "server-only";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { apiError, ApiError, type ApiErrorCode, type StatusOf, type Where } from "@/lib/rules/api-errors";
import { acceptWrite, type ReviewWrite, type WriteFinding } from "@/lib/rules/accept-write";
import type { ReviewWriteRequest } from "@/lib/rules/review-write";
import type { ReviewThread } from "./derive";
import { deriveReviewState } from "./derive";
import type { ReviewRecord } from "./records";
import { appendRecord, newRecordId } from "./review-log";
import { reviewOf, type ReviewView } from "./read-review";
import type { ReviewTarget } from "./review-target";
import { announce } from "@/lib/webhooks/announce";

/**
 * The one road every review action takes: find the note (404 if none), read the review at the head
 * the record will be appended to, let the acceptance function (lib/rules/review-write.ts) decide
 * there, append the record as a commit by the actor, answer the review. A race with another
 * writer re-reads the review and decides again, so a rule holds at the commit that lands.
 */

type Fields<R> = R extends ReviewRecord ? Omit<R, "v" | "id" | "at" | "by"> : never;
export type Draft = Fields<ReviewRecord>;

export async function writeReview(
  actor: StudioActor,
  target: ReviewTarget,
  write: ReviewWriteRequest,
  /** The record and its commit message, once the write is accepted (`thread` then finds the thread it names). */
  build: (ctx: { thread: (threadId: string) => ReviewThread }) => { fields: Draft; message: string },
): Promise<{ record: ReviewRecord; review: ReviewView }> {
  const id = target.id;
  const { record, head } = await appendRecord(
    target.store,
    id,
    commitPerson(actor),
    async (log) => {
      const { threads, verdicts } = deriveReviewState(log.records, { currentRevision: target.currentRevision, currentNote: target.currentNote });
      const hasDraft = target.copy.source !== "published";
      const context = { id, currentRevision: target.currentRevision, currentNote: target.currentNote, authors: target.authors, threads, verdicts, hasDraft };
      const verdict = await acceptWrite({ ...write, actor, context } as ReviewWrite);
      if (!verdict.allowed) throw reviewRefused(write.kind, verdict.findings, target);
      const thread = (threadId: string) => {
        const found = threads.find((t) => t.id === threadId);
        if (!found) throw new Error(`accepted a review write on thread ${threadId}, which ${id} does not have`);
        return found;
      };
      const { fields, message } = build({ thread });
      const record = { ...fields, v: 1, id: newRecordId(), at: new Date().toISOString(), by: { id: actor.id, name: actor.name } } as ReviewRecord;
      return { record, message: `${id}: ${message}\n\nBy ${actor.name} (${actor.role}).` };
    },
    target.reviewHead,
  );
  await announce({
    kind: "review",
    actor: { id: actor.id, name: actor.name },
    commit: head,
    noteId: id,
    note: target.currentNote,
    published: target.copy.onMain != null,
    record,
  });
  // The answer is the review at the commit this write made (the target was read before it).
  return { record, review: await reviewOf({ ...target, reviewHead: head }) };
}

/**
 * A refused review write as the API answers it: the first finding picks the status and code (who
 * may not, then what is not there, then what is stale or wrong), and `where` lists every finding.
 */
function reviewRefused(kind: ReviewWrite["kind"], findings: readonly WriteFinding[], target: ReviewTarget): ApiError {
  const where: Where[] = findings.map((f) => ({
    field: f.field,
    message: f.message,
    ...(f.line ? { line: f.line } : {}),
    ...(f.column ? { column: f.column } : {}),
    ...(f.policy ? { rule: f.policy } : {}),
    ...(f.excerpt ? { excerpt: f.excerpt } : {}),
  }));
  const first = findings[0];
  if (!first) throw new Error("a refused review write has no finding");
  // The status is the one lib/rules/api-errors.ts gives the code (apiError refuses any other pair).
  const refuse = <C extends ApiErrorCode>(status: StatusOf<C>, code: C, message = first.message, extra: Record<string, unknown> = {}) =>
    apiError(status, code, message, { where }, extra);
  switch (first.rule) {
    case "role":
      return refuse(403, "forbidden");
    case "self-review":
      return refuse(403, "self-verdict");
    case "reviewable":
      return refuse(422, "not-reviewable");
    case "revision":
      return kind === "verdict" || kind === "review-request"
        ? refuse(409, "stale-revision", first.message, { currentRevision: target.currentRevision })
        : refuse(422, "unknown-revision");
    case "anchor":
      return refuse(422, "quote-not-found");
    case "thread":
      return first.field === "resolved" ? refuse(409, kind === "thread-resolve" ? "already-resolved" : "already-open") : refuse(404, "not-found");
    case "comment":
      return first.field === "by" ? refuse(403, "not-your-comment") : first.field === "text" ? refuse(422, "unchanged") : refuse(404, "not-found");
    case "verdict":
      return first.field === "withdrawn"
        ? refuse(409, "already-withdrawn")
        : first.field === "verdict" && /no verdict/.test(first.message)
          ? refuse(404, "not-found")
          : refuse(422, "review-refused");
    case "reviewer":
      return refuse(422, "not-a-reviewer");
    case "archive-policy":
      return refuse(422, "policy", `the archive policy refuses this text: ${where.map((w) => `${w.field} line ${w.line}: ${w.message}`).join("; ")}`);
    default:
      return refuse(422, "review-refused");
  }
}

export const clip = (s: string, n = 60) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
};
