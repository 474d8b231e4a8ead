import "server-only";
import type { Status } from "@/lib/notes/schema";
import { deriveReviewState, verdictState, type DerivedReview } from "./derive";
import { readReviewLog } from "./review-log";
import { reviewTarget, type ReviewTarget } from "./review-target";

/** A note's review as the studio shows it and GET …/threads answers. */
export type ReviewView = DerivedReview & {
  id: string;
  status: Status | null;
  /** The revision a verdict must name (the draft's head). */
  revisionAuthors: string[];
  verdictState: ReturnType<typeof verdictState>;
  /** refs/reviews/<id>'s commit the review was read at. */
  reviewHead: string | null;
};

// The derived review per (review commit, note revision): both are commit ids, so an entry never goes stale.
const derived = new Map<string, DerivedReview>();
const MAX = 500;

export async function reviewOf(target: ReviewTarget): Promise<ReviewView> {
  const log = await readReviewLog(target.store, target.id, target.reviewHead);
  const key = `${target.store.gitdir}\0${log.head}\0${target.currentRevision}\0${target.authors.join(",")}`;
  let review = derived.get(key);
  if (!review) {
    review = deriveReviewState(log.records, { currentRevision: target.currentRevision, currentNote: target.currentNote, revisionAuthors: target.authors });
    review.problems.unshift(...log.problems);
    if (derived.size >= MAX) derived.delete(derived.keys().next().value as string);
    derived.set(key, review);
  }
  return {
    ...review,
    id: target.id,
    status: target.currentNote?.status ?? null,
    revisionAuthors: target.authors,
    verdictState: verdictState(review),
    reviewHead: log.head,
  };
}

export async function readReview(id: string): Promise<ReviewView> {
  return reviewOf(await reviewTarget(id));
}
