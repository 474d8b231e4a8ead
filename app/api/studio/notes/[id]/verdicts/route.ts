import { noteId, route } from "@/lib/api/route";
import { giveVerdict } from "@/lib/review/give-verdict";
import { readReview } from "@/lib/review/read-review";
import { verdictRequest } from "@/lib/validations/review";
import { mailAfter } from "@/lib/notifications/mail-after";

/**
 * GET: the verdicts on the note (each marked stale when not on its current revision).
 * POST {verdict: "approve" | "request-changes", revision, summary?}: reviewers only, never on one's
 * own note (403), and only on the current revision (409).
 */

export const GET = route({ hideFromAnonymous: true, params: { id: noteId } }, async ({ params }) => {
  const { currentRevision, verdicts, verdictState } = await readReview(params.id);
  return { id: params.id, currentRevision, verdictState, verdicts };
});

export const POST = route({ role: "reviewer", params: { id: noteId }, body: verdictRequest, status: 201 }, async ({ actor, params, body, request }) => {
  const { record, review } = await giveVerdict(actor, params.id, body);
  mailAfter(record.id, request);
  return { verdict: record.id, ...review };
});
