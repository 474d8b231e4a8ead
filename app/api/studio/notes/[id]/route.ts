import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { readNote } from "@/lib/studio/read-note";
import { noteIdParam } from "@/lib/studio/refs";
import { saveDraft } from "@/lib/studio/save-draft";
import { saveDraftRequest } from "@/lib/validations/studio";

/** GET: the note as the studio edits it, with its revision. PUT: save the draft (409 when stale). */

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (request: Request, { params }: Context) => {
  // A draft's address admits nothing to someone who is not signed in.
  const actor = await requireActor(request, undefined, { hideFromAnonymous: true });
  const id = noteIdParam((await params).id);
  return json(await readNote(actor, id));
});

export const PUT = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "author");
  const id = noteIdParam((await params).id);
  const body = await parseBody(request, saveDraftRequest);
  const { saved, view } = await saveDraft(actor, id, body);
  return json({ saved, ...view });
});
