import type { ReviewState } from "@/lib/rules/status-machine";
import { getReviewState } from "@/lib/review/read-review";

/**
 * Review verdicts on a note, as the status machine checks them: derived from refs/reviews/<id>
 * by lib/review (each reviewer's latest verdict per revision).
 */
export async function reviewsOf(id: string): Promise<ReviewState> {
  return getReviewState(id);
}
