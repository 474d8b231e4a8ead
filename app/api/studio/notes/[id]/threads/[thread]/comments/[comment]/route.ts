import { commentId, noteId, route, threadId } from "@/lib/api/route";
import { editComment } from "@/lib/review/thread-actions";
import { editCommentRequest } from "@/lib/validations/review";

/** PATCH {text}: edit one's own comment; the earlier text stays in its history (403 for someone else's). */
export const PATCH = route(
  { params: { id: noteId, thread: threadId, comment: commentId }, body: editCommentRequest },
  async ({ actor, params, body }) => (await editComment(actor, params.id, params.thread, params.comment, body)).review,
);
