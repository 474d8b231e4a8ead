import { getContentStore, NothingToCommitError, RefConflictError } from "@/lib/store";
import { serializeNote } from "@/lib/notes/markdown";
import { checkBoundaryChange } from "@/lib/rules/status-machine";
import { commitPerson, type StudioActor } from "@/lib/auth/identity";
import { ApiError, type Where } from "@/lib/api/errors";
import { composeNote, validateNote, type NoteFields, type NoteMeta } from "@/lib/validations/note";
import type { NoteBody, SaveDraftRequest } from "@/lib/validations/studio";
import { staleRevision } from "./conflict";
import { describeSave } from "./describe-change";
import { viewOf, type NoteView } from "./note-view";
import { refuseUnknownPhase } from "./phase-names";
import { policyFindings } from "./policy";
import { draftRef, MAIN_REF, notePath } from "./refs";
import { isFresh, isOnMain, workingCopy } from "./working-copy";

/**
 * Save draft: one commit on drafts/<id> by the signed-in person, moving the branch only from the
 * revision the editor opened. Saving a published note's first edit creates its draft branch.
 * Refused (422) while the note is invalid or the archive policy finds something; stale (409) when
 * the branch moved.
 */

export type SaveResult = { saved: boolean; view: NoteView };

export async function saveDraft(actor: StudioActor, id: string, request: SaveDraftRequest): Promise<SaveResult> {
  const store = await getContentStore();
  const copy = await workingCopy(id, store);
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(copy, request.revision, request.note);

  const before = copy.stored?.ok ? copy.stored.note : null;
  // The file's name is the note's id, whatever a hand-edited front matter says.
  const meta: NoteMeta = before ? { ...before, id } : { id, status: "draft", order: await nextOrder() };
  refuseReadOnlyChanges(id, meta, request.note);

  const checked = validateNote(composeNote(meta, fieldsFrom(request.note)));
  if (!checked.ok) {
    throw new ApiError(422, "invalid-note", `${id} is not valid yet: ${list(checked.problems)}`, { where: checked.problems });
  }
  const note = checked.note;
  await refuseUnknownPhase(store, copy.mainHead, note);
  if (before && isOnMain(copy)) {
    const boundary = checkBoundaryChange(before.boundaries, note.boundaries, request.reason);
    if (!boundary.allowed) {
      throw new ApiError(422, "boundary-removed", `${boundary.unmet.join("; ")}: readers and agents rely on it; send a reason`, {
        where: boundary.unmet.map((message) => ({ field: "boundaries", message })),
        unmet: boundary.unmet,
      });
    }
  }
  const findings = await policyFindings(note);
  if (findings.length) {
    throw new ApiError(422, "policy", `the archive policy refuses this text: ${list(findings)}`, { where: findings });
  }

  try {
    await store.commit({
      ref: draftRef(id),
      expected: copy.draftHead,
      parent: copy.draftHead ?? copy.mainHead,
      author: commitPerson(actor),
      message: describeSave(id, before, note, request.reason),
      changes: { [notePath(id)]: serializeNote(note) },
    });
  } catch (e) {
    if (e instanceof NothingToCommitError) return { saved: false, view: await viewOf(copy) };
    if (e instanceof RefConflictError) throw await staleRevision(await workingCopy(id, store), request.revision, request.note);
    throw e;
  }
  return { saved: true, view: await viewOf(await workingCopy(id, store)) };
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
  if (body.order !== undefined && body.order !== meta.order) where.push({ field: "order", message: "the editorial order is kept by the studio, not set by a save" });
  const sameOrAbsent = (sent: string | null | undefined, have: string | undefined) => sent === undefined || (sent ?? undefined) === have;
  if (!sameOrAbsent(body.superseded_by, meta.superseded_by)) where.push({ field: "superseded_by", message: `set by the "Supersede…" status change, not by a save` });
  if (!sameOrAbsent(body.retraction_reason, meta.retraction_reason)) where.push({ field: "retraction_reason", message: `set by the "Retract…" status change, not by a save` });
  if (where.length) throw new ApiError(422, "read-only-field", `a save changes a note's fields, not ${where.map((w) => w.field).join(", ")}: ${where[0]?.message}`, { where });
}

function fieldsFrom(body: NoteBody): NoteFields {
  const { title, summary, phase, tags, related, boundaries, core, sections } = body;
  return { title, summary, phase, tags, related, boundaries, core, sections };
}

async function nextOrder(): Promise<number> {
  const store = await getContentStore();
  const main = await store.snapshot(MAIN_REF);
  return Math.max(0, ...main.notes.flatMap((n) => (n.ok ? [n.note.order] : []))) + 1;
}

const list = (items: { field: string; message: string; line?: number }[]) =>
  items.map((p) => `${p.field}${p.line ? ` line ${p.line}` : ""}: ${p.message}`).join("; ");
