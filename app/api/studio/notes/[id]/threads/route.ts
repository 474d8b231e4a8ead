import { noteId, route } from "@/lib/api/route";
import { readReview } from "@/lib/review/read-review";
import { startThread } from "@/lib/review/thread-actions";
import { startThreadRequest } from "@/lib/validations/review";
import { mailAfter } from "@/lib/notifications/mail-after";

/** GET: the note's review (threads and verdicts). POST {section, quote?, revision, text}: a new thread (201). */

// A draft's review admits nothing to someone who is not signed in.
export const GET = route({ hideFromAnonymous: true, params: { id: noteId } }, ({ params }) => readReview(params.id));

export const POST = route({ params: { id: noteId }, body: startThreadRequest, status: 201 }, async ({ actor, params, body, request }) => {
  const { record, review } = await startThread(actor, params.id, body);
  mailAfter(record.id, request);
  return { thread: record.id, ...review };
});
