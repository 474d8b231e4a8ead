import { noteId, route, threadId } from "@/lib/api/route";
import { setThreadResolved } from "@/lib/review/thread-actions";
import { emptyRequest } from "@/lib/validations/review";

/** POST: resolve the thread, as one more record (409 when it already is resolved). */
export const POST = route({ params: { id: noteId, thread: threadId }, body: emptyRequest }, async ({ actor, params }) => {
  const { review } = await setThreadResolved(actor, params.id, params.thread, true);
  return review;
});
