import { noteId, route, threadId } from "@/lib/api/route";
import { replyToThread } from "@/lib/review/thread-actions";
import { replyRequest } from "@/lib/validations/review";

/** POST {text}: a reply in the thread (201). */
export const POST = route({ params: { id: noteId, thread: threadId }, body: replyRequest, status: 201 }, async ({ actor, params, body }) => {
  const { record, review } = await replyToThread(actor, params.id, params.thread, body);
  return { comment: record.id, ...review };
});
