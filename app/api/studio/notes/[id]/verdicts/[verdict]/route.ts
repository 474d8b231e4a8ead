import { noteId, route, verdictId } from "@/lib/api/route";
import { withdrawVerdict } from "@/lib/review/give-verdict";
import { emptyRequest } from "@/lib/validations/review";

/**
 * DELETE: the reviewer who requested changes withdraws the request (reviewers only, their own
 * verdict only: 403; an approval: 422; already withdrawn: 409). The record stays, marked withdrawn.
 * The body is `{}`, as for resolving a thread.
 */
export const DELETE = route({ role: "reviewer", params: { id: noteId, verdict: verdictId }, body: emptyRequest }, async ({ actor, params }) => {
  const { review } = await withdrawVerdict(actor, params.id, params.verdict);
  return review;
});
