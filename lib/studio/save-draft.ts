import "server-only";
import { getStoreForWrite } from "@/lib/working-copy/content-store";
import { NothingToCommitError, RefConflictError } from "@/lib/store";
import { serializeNote } from "@/lib/notes/markdown";
import { acceptWrite } from "@/lib/rules/accept-write";
import { noteAssets } from "@/lib/assets/note-assets";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { ApiError, type Where } from "@/lib/rules/api-errors";
import { composeNote, validateNote, type NoteFields, type NoteMeta } from "@/lib/validations/note";
import type { NoteBody, SaveDraftRequest } from "@/lib/validations/studio";
import { isFresh } from "@/lib/working-copy/working-copy";
import type { Note, NoteInput } from "@/lib/notes/schema";
import { staleRevision } from "./conflict";
import { describeSave } from "./describe-change";
import { afterDraftCommit, loadNoteContext, writeContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";
import { editRefused } from "./refusal";
import { draftRef, notePath } from "./refs";
/**
 * Save draft: one commit on drafts/<id> by the signed-in person, moving the branch only from the
 * revision the editor opened. Saving a published note's first edit creates its draft branch.
 * Refused (422) while the note is invalid or the archive policy finds something; stale (409) when
 * the branch moved.
 */

export type SaveResult = { saved: boolean; view: NoteView };

export async function saveDraft(actor: StudioActor, id: string, request: SaveDraftRequest): Promise<SaveResult> {
  const store = await getStoreForWrite();
  const ctx = await loadNoteContext(id, store);
  const { copy } = ctx;
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(ctx, request.revision, request.note);

  const before = copy.stored?.ok ? copy.stored.note : null;
  // The file's name is the note's id, whatever a hand-edited front matter says.
  const meta: NoteMeta = before ? { ...before, id } : { id, status: "draft", order: ctx.main.nextOrder };
  refuseReadOnlyChanges(id, meta, request.note);

  const after = composeNote(meta, fieldsFrom(request.note));
  // The images the note references go into the same commit (staged by their uploads); ones it dropped leave it.
  const assets = await noteAssets(store, { id, sections: after.sections }, copy.draftHead ?? copy.mainHead);
  const verdict = await acceptWrite({
    kind: "save",
    before,
    after,
    actor,
    context: { ...writeContext(ctx, undefined, request.reason), assets: assets.context },
  });
  if (!verdict.allowed) throw editRefused(id, verdict.findings, false);
  const note = validNote(after);

  let commit;
  try {
    commit = await store.commit({
      ref: draftRef(id),
      expected: copy.draftHead,
      parent: copy.draftHead ?? copy.mainHead,
      author: commitPerson(actor),
      message: describeSave(id, before, note, request.reason),
      changes: { [notePath(id)]: serializeNote(note), ...assets.changes },
    });
  } catch (e) {
    if (e instanceof NothingToCommitError) return { saved: false, view: await viewOf(ctx) };
    if (e instanceof RefConflictError) throw await staleRevision(await loadNoteContext(id, store), request.revision, request.note);
    throw e;
  }
  return { saved: true, view: await viewOf(await afterDraftCommit(ctx, commit)) };
}

/** Status, id and the fields status changes own are not edited by a save: send them unchanged or not at all. */
function refuseReadOnlyChanges(id: string, meta: NoteMeta, body: NoteBody) {
  const where: Where[] = [];
  if (body.id !== undefined && body.id !== id) where.push({ field: "id", message: `the note's id is ${id}; an id never changes` });
  if (body.status !== undefined && body.status !== meta.status) {
    where.push({
      field: "status",
      message: `status changes only through POST /api/studio/notes/${id}/transitions (this save asked for ${body.status}; the note is ${meta.status})`,
    });
  }
  if (body.order !== undefined && body.order !== meta.order)
    where.push({ field: "order", message: "the editorial order is kept by the studio, not set by a save" });
  const sameOrAbsent = (sent: string | null | undefined, have: string | undefined) => sent === undefined || (sent ?? undefined) === have;
  if (!sameOrAbsent(body.superseded_by, meta.superseded_by))
    where.push({ field: "superseded_by", message: `set by the "Supersede…" status change, not by a save` });
  if (!sameOrAbsent(body.retraction_reason, meta.retraction_reason))
    where.push({ field: "retraction_reason", message: `set by the "Retract…" status change, not by a save` });
  if (where.length)
    throw new ApiError(422, "read-only-field", `a save changes a note's fields, not ${where.map((w) => w.field).join(", ")}: ${where[0]?.message}`, { where });
}

function fieldsFrom(body: NoteBody): NoteFields {
  const { title, summary, phase, tags, related, boundaries, affects, core, sections } = body;
  return { title, summary, phase, tags, related, boundaries, affects, core, sections };
}

/** The note the acceptance function accepted, typed as one (it ran the same schema). */
export function validNote(input: NoteInput): Note {
  const checked = validateNote(input);
  if (!checked.ok) throw new Error(`accepted note failed the schema: ${checked.problems.map((p) => p.message).join("; ")}`);
  return checked.note;
}
