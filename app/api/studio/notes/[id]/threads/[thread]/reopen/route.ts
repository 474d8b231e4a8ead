import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { setThreadResolved } from "@/lib/review/thread-actions";
import { threadIdParam } from "@/lib/review/params";
import { noteIdParam } from "@/lib/studio/refs";
import { emptyRequest } from "@/lib/validations/review";

/** POST: reopen the thread, as one more record (409 when it already is open). */

type Context = { params: Promise<{ id: string; thread: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request);
  const p = await params;
  const id = noteIdParam(p.id);
  await parseBody(request, emptyRequest);
  const { review } = await setThreadResolved(actor, id, threadIdParam(p.thread), false);
  return json(review);
});
