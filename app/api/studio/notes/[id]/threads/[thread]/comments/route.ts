import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { replyToThread } from "@/lib/review/thread-actions";
import { noteIdParam } from "@/lib/studio/refs";
import { threadIdParam } from "@/lib/review/params";
import { replyRequest } from "@/lib/validations/review";

/** POST {text}: a reply in the thread (201). */

type Context = { params: Promise<{ id: string; thread: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request);
  const p = await params;
  const id = noteIdParam(p.id);
  const thread = threadIdParam(p.thread);
  const body = await parseBody(request, replyRequest);
  const { record, review } = await replyToThread(actor, id, thread, body);
  return json({ comment: record.id, ...review }, 201);
});
