import { commentId, noteId, route, threadId } from "@/lib/api/route";
import { editComment } from "@/lib/review/thread-actions";
import { editCommentRequest } from "@/lib/validations/review";
import { mailAfter } from "@/lib/notifications/mail-after";

/** PATCH {text}: edit one's own comment; the earlier text stays in its history (403 for someone else's). */
export const PATCH = route(
  { params: { id: noteId, thread: threadId, comment: commentId }, body: editCommentRequest },
  async ({ actor, params, body, request }) => {
    const { record, review } = await editComment(actor, params.id, params.thread, params.comment, body);
    mailAfter(record.id, request);
    return review;
  },
);
