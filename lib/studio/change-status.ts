import { getContentStore, RefConflictError } from "@/lib/store";
import { STATUS_MACHINE, checkTransition } from "@/lib/rules/status-machine";
import type { Note } from "@/lib/notes/schema";
import { commitPerson, type StudioActor } from "@/lib/auth/identity";
import { ApiError } from "@/lib/api/errors";
import { serializeNote } from "@/lib/notes/markdown";
import { validateNote } from "@/lib/validations/note";
import type { ChangeStatusRequest } from "@/lib/validations/studio";
import { staleRevision } from "./conflict";
import { describeTransition } from "./describe-change";
import { viewOf, type NoteView } from "./note-view";
import { reviewsOf } from "./reviews";
import { draftRef, notePath } from "./refs";
import { isFresh, publishedIds, revisionAuthors, revisionsOf, workingCopy } from "./working-copy";

/**
 * A status change ("Propose as hypothesis", "Retract…"): checked by the status machine against the
 * stored draft (not against what the browser says it has), then one commit on the draft branch.
 * Refused with every unmet requirement (422); stale when the draft moved (409).
 */
export async function changeStatus(actor: StudioActor, id: string, request: ChangeStatusRequest): Promise<NoteView> {
  const store = await getContentStore();
  const copy = await workingCopy(id, store);
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(copy, request.revision, { to: request.to });
  if (!copy.stored) {
    throw new ApiError(422, "transition-refused", `${id} has never been saved; save the draft before changing its status`, { unmet: ["the draft has never been saved"] });
  }
  if (!copy.stored.ok) {
    const where = copy.stored.errors.map((e) => ({ field: e.field, line: e.line, message: e.message }));
    throw new ApiError(422, "invalid-note", `${id}'s stored file is not a valid note; fix it before changing its status`, { where });
  }

  const before = copy.stored.note;
  const candidate: Note = request.superseded_by ? { ...before, superseded_by: request.superseded_by } : before;
  const [authors, published, reviews, [last]] = await Promise.all([revisionAuthors(copy), publishedIds(copy.mainHead), reviewsOf(id), revisionsOf(copy, 1)]);
  const verdict = checkTransition({
    note: candidate,
    to: request.to,
    revision: copy.draftHead ?? last?.commit ?? copy.mainHead,
    revisionAuthors: authors,
    reviews,
    actor,
    reason: request.reason,
    publishedIds: published,
  });
  const route = STATUS_MACHINE[before.status][request.to];
  const label = route.allowed ? route.label : `${before.status} → ${request.to}`;
  if (!verdict.allowed) {
    throw new ApiError(422, "transition-refused", `${label.replace(/…$/, "")} is refused: ${verdict.unmet.join("; ")}`, { unmet: verdict.unmet });
  }

  const after = validateNote({
    ...candidate,
    status: request.to,
    ...(request.to === "retracted" && request.reason ? { retraction_reason: request.reason } : {}),
  });
  if (!after.ok) throw new ApiError(422, "invalid-note", `the note would not be valid: ${after.problems.map((p) => `${p.field}: ${p.message}`).join("; ")}`, { where: after.problems });

  try {
    await store.commit({
      ref: draftRef(id),
      expected: copy.draftHead,
      parent: copy.draftHead ?? copy.mainHead,
      author: commitPerson(actor),
      message: describeTransition(id, before, after.note, label, request.reason),
      changes: { [notePath(id)]: serializeNote(after.note) },
    });
  } catch (e) {
    if (e instanceof RefConflictError) throw await staleRevision(await workingCopy(id, store), request.revision, { to: request.to });
    throw e;
  }
  return viewOf(await workingCopy(id, store));
}
