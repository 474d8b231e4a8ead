import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { publishNote } from "@/lib/studio/publish-note";
import { noteIdParam } from "@/lib/studio/refs";
import { publishNoteRequest } from "@/lib/validations/studio";

/** POST {revision, main?}: the draft onto main as one commit touching only its file. */

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "author");
  const id = noteIdParam((await params).id);
  const body = await parseBody(request, publishNoteRequest);
  return json(await publishNote(actor, id, body));
});
