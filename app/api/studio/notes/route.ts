import { route } from "@/lib/api/route";
import { createNote } from "@/lib/studio/create-note";
import { listNotes } from "@/lib/studio/list-notes";
import { mainState } from "@/lib/studio/main-state";
import { getContentStore } from "@/lib/working-copy/content-store";
import { createNoteRequest } from "@/lib/validations/studio";

/** GET: drafts and published notes, and what the studio must say about main (a refused commit, a rewind). POST: a new draft with the next free id (201). */

export const GET = route({}, async ({ actor }) => ({ notes: await listNotes(actor), main: await mainState(await getContentStore()) }));

export const POST = route({ role: "author", body: createNoteRequest }, async ({ actor, body }) => {
  const { id, view } = await createNote(actor, body);
  return Response.json(view, { status: 201, headers: { location: `/api/studio/notes/${id}`, "cache-control": "no-store" } });
});
