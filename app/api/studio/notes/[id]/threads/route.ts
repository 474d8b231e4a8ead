import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { readReview } from "@/lib/review/read-review";
import { startThread } from "@/lib/review/thread-actions";
import { noteIdParam } from "@/lib/studio/refs";
import { startThreadRequest } from "@/lib/validations/review";

/** GET: the note's review (threads and verdicts). POST {section, quote?, revision, text}: a new thread (201). */

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (request: Request, { params }: Context) => {
  // A draft's review admits nothing to someone who is not signed in.
  await requireActor(request, undefined, { hideFromAnonymous: true });
  const id = noteIdParam((await params).id);
  return json(await readReview(id));
});

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request);
  const id = noteIdParam((await params).id);
  const body = await parseBody(request, startThreadRequest);
  const { record, review } = await startThread(actor, id, body);
  return json({ thread: record.id, ...review }, 201);
});
