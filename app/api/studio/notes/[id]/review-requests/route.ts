import { noteId, route } from "@/lib/api/route";
import { readReview } from "@/lib/review/read-review";
import { requestReview } from "@/lib/review/request-review";
import { reviewRequestBody } from "@/lib/validations/review";
import { mailAfter } from "@/lib/notifications/mail-after";

/**
 * GET: the review requests on the note. POST {revision, reviewers: [account id…], text?}: an author
 * asks the named reviewers (or, with none, any reviewer) for a review of the current revision.
 */

export const GET = route({ hideFromAnonymous: true, params: { id: noteId } }, async ({ params }) => {
  const { currentRevision, requests } = await readReview(params.id);
  return { id: params.id, currentRevision, requests };
});

export const POST = route({ role: "author", params: { id: noteId }, body: reviewRequestBody, status: 201 }, async ({ actor, params, body, request }) => {
  const { record, review } = await requestReview(actor, params.id, body);
  mailAfter(record.id, request);
  return { request: record.id, ...review };
});
