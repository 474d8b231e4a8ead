import { route } from "@/lib/api/route";
import { createNote } from "@/lib/studio/create-note";
import { listNotes } from "@/lib/studio/list-notes";
import { createNoteRequest } from "@/lib/validations/studio";

/** GET: drafts and published notes. POST: a new draft with the next free id (201). */

export const GET = route({}, async ({ actor }) => ({ notes: await listNotes(actor) }));

export const POST = route({ role: "author", body: createNoteRequest }, async ({ actor, body }) => {
  const { id, view } = await createNote(actor, body);
  return Response.json(view, { status: 201, headers: { location: `/api/studio/notes/${id}`, "cache-control": "no-store" } });
});
