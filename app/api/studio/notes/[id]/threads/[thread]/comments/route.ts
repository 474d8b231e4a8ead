import { noteId, route, threadId } from "@/lib/api/route";
import { replyToThread } from "@/lib/review/thread-actions";
import { replyRequest } from "@/lib/validations/review";
import { mailAfter } from "@/lib/notifications/mail-after";

/** POST {text}: a reply in the thread (201). */
export const POST = route({ params: { id: noteId, thread: threadId }, body: replyRequest, status: 201 }, async ({ actor, params, body, request }) => {
  const { record, review } = await replyToThread(actor, params.id, params.thread, body);
  mailAfter(record.id, request);
  return { comment: record.id, ...review };
});
