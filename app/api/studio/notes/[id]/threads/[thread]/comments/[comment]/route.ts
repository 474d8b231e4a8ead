import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { editComment } from "@/lib/review/thread-actions";
import { threadIdParam } from "@/lib/review/params";
import { noteIdParam } from "@/lib/studio/refs";
import { editCommentRequest } from "@/lib/validations/review";

/** PATCH {text}: edit one's own comment; the earlier text stays in its history (403 for someone else's). */

type Context = { params: Promise<{ id: string; thread: string; comment: string }> };

export const PATCH = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request);
  const p = await params;
  const id = noteIdParam(p.id);
  const body = await parseBody(request, editCommentRequest);
  const { review } = await editComment(actor, id, threadIdParam(p.thread), threadIdParam(p.comment, "comment"), body);
  return json(review);
});
