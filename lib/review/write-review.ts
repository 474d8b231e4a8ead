import { commitPerson, type StudioActor } from "@/lib/auth/identity";
import { ApiError } from "@/lib/api/errors";
import type { ReviewThread } from "./derive";
import { deriveReviewState } from "./derive";
import type { ReviewRecord } from "./records";
import { appendRecord, newRecordId, type ReviewLog } from "./review-log";
import { reviewOf, type ReviewView } from "./read-review";
import type { ReviewTarget } from "./review-target";

/**
 * The one road every review action takes: find the note (404 if none), build the record on the
 * review's current head (checks run there), append it as a commit by the actor, answer the review.
 */

type Fields<R> = R extends ReviewRecord ? Omit<R, "v" | "id" | "at" | "by"> : never;
export type Draft = Fields<ReviewRecord>;

export async function writeReview(
  actor: StudioActor,
  target: ReviewTarget,
  build: (ctx: { target: ReviewTarget; log: ReviewLog; thread: (threadId: string) => ReviewThread }) => { fields: Draft; message: string },
): Promise<{ record: ReviewRecord; review: ReviewView }> {
  const id = target.id;
  const { record } = await appendRecord(target.store, id, commitPerson(actor), (log) => {
    const thread = (threadId: string) => {
      const review = deriveReviewState(log.records, { currentRevision: target.currentRevision, currentNote: target.currentNote });
      const found = review.threads.find((t) => t.id === threadId);
      if (!found) throw new ApiError(404, "not-found", `${id} has no review thread ${threadId}`);
      return found;
    };
    const { fields, message } = build({ target, log, thread });
    const record = { ...fields, v: 1, id: newRecordId(), at: new Date().toISOString(), by: { id: actor.id, name: actor.name } } as ReviewRecord;
    return { record, message: `${id}: ${message}\n\nBy ${actor.name} (${actor.role}).` };
  });
  return { record, review: await reviewOf(target) };
}

export const clip = (s: string, n = 60) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > n ? `${line.slice(0, n - 1)}…` : line;
};
