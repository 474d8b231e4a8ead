import { noteId, route } from "@/lib/api/route";
import { readNote } from "@/lib/studio/read-note";
import { saveDraft } from "@/lib/studio/save-draft";
import { discardDraft } from "@/lib/studio/discard-draft";
import { discardDraftRequest, saveDraftRequest } from "@/lib/validations/studio";

/**
 * GET: the note as the studio edits it, with its revision. PUT: save the draft (409 when stale).
 * DELETE {revision}: discard the draft at that revision (its last revision kept under refs/discarded/).
 */

// A draft's address admits nothing to someone who is not signed in.
export const GET = route({ hideFromAnonymous: true, params: { id: noteId } }, ({ actor, params }) => readNote(actor, params.id));

export const PUT = route({ role: "author", params: { id: noteId }, body: saveDraftRequest }, async ({ actor, params, body }) => {
  const { saved, view } = await saveDraft(actor, params.id, body);
  return { saved, ...view };
});

export const DELETE = route({ role: "author", params: { id: noteId }, body: discardDraftRequest }, ({ actor, params, body }) =>
  discardDraft(actor, params.id, body),
);
