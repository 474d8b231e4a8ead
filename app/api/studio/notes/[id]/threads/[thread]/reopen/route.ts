import { noteId, route, threadId } from "@/lib/api/route";
import { setThreadResolved } from "@/lib/review/thread-actions";
import { emptyRequest } from "@/lib/validations/review";

/** POST: reopen the thread, as one more record (409 when it already is open). */
export const POST = route({ params: { id: noteId, thread: threadId }, body: emptyRequest }, async ({ actor, params }) => {
  const { review } = await setThreadResolved(actor, params.id, params.thread, false);
  return review;
});
