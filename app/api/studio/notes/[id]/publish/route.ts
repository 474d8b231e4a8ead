import { noteId, route } from "@/lib/api/route";
import { publishNote } from "@/lib/studio/publish-note";
import { publishNoteRequest } from "@/lib/validations/studio";

/** POST {revision, main?}: the draft onto main as one commit touching only its file. */
export const POST = route({ role: "author", params: { id: noteId }, body: publishNoteRequest }, ({ actor, params, body }) =>
  publishNote(actor, params.id, body),
);
