import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { createNote } from "@/lib/studio/create-note";
import { listNotes } from "@/lib/studio/list-notes";
import { createNoteRequest } from "@/lib/validations/studio";

/** GET: drafts and published notes. POST: a new draft with the next free id (201). */

export const GET = handle(async (request: Request) => {
  const actor = await requireActor(request);
  return json({ notes: await listNotes(actor) });
});

export const POST = handle(async (request: Request) => {
  const actor = await requireActor(request, "author");
  const body = await parseBody(request, createNoteRequest);
  const { id, view } = await createNote(actor, body);
  return Response.json(view, { status: 201, headers: { location: `/api/studio/notes/${id}`, "cache-control": "no-store" } });
});
