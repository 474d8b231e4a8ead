import type { ReviewState } from "@/lib/rules/status-machine";

/**
 * Review verdicts on a note. The review issue stores them (refs/reviews/<id>); until it lands there
 * are none, so a promotion to verified is refused with the reason "no approval of revision …".
 */
export async function reviewsOf(_id: string): Promise<ReviewState> {
  return { verdicts: [] };
}
