import "server-only";
import { getStoreForWrite } from "@/lib/working-copy/content-store";
import { RefConflictError } from "@/lib/store";
import { STATUS_MACHINE } from "@/lib/rules/status-machine";
import { acceptWrite } from "@/lib/rules/accept-write";
import { formatTrailers, standingApprovals, withTrailers } from "@/lib/rules/approval-trailers";
import { isVerifiedStatus } from "@/lib/rules/phase-closeout";
import type { Note } from "@/lib/notes/schema";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { ApiError } from "@/lib/rules/api-errors";
import { serializeNote } from "@/lib/notes/markdown";
import type { ChangeStatusRequest } from "@/lib/validations/studio";
import { isFresh } from "@/lib/working-copy/working-copy";
import { staleRevision } from "./conflict";
import { describeTransition } from "./describe-change";
import { afterDraftCommit, loadNoteContext, writeContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";
import { unmetOf, whereOf } from "./refusal";
import { draftRef, notePath } from "./refs";
import { validNote } from "./save-draft";
import { announce } from "@/lib/webhooks/announce";

/**
 * A status change ("Propose as hypothesis", "Retract…"): judged by the acceptance function against
 * the stored draft (not against what the browser says it has), then one commit on the draft branch.
 * Refused with every unmet requirement (422); stale when the draft moved (409). A promotion that
 * needed an approval names it in trailers, as the publish that follows does.
 */
export async function changeStatus(actor: StudioActor, id: string, request: ChangeStatusRequest): Promise<NoteView> {
  const store = await getStoreForWrite();
  const ctx = await loadNoteContext(id, store);
  const { copy } = ctx;
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(ctx, request.revision, { to: request.to });
  if (!copy.stored) {
    throw new ApiError(422, "transition-refused", `${id} has never been saved; save it before changing its status`, {
      unmet: ["the draft has never been saved"],
    });
  }
  if (!copy.stored.ok) {
    const where = copy.stored.errors.map((e) => ({ field: e.field, line: e.line, message: e.message }));
    throw new ApiError(422, "invalid-note", `${id}'s stored file is not a valid note; fix it before changing its status`, { where });
  }

  const before = copy.stored.note;
  const after: Note = {
    ...before,
    ...(request.superseded_by ? { superseded_by: request.superseded_by } : {}),
    status: request.to,
    ...(request.to === "retracted" && request.reason ? { retraction_reason: request.reason } : {}),
  };
  const route = STATUS_MACHINE[before.status]?.[request.to];
  const label = route?.allowed ? route.label : `${before.status} → ${request.to}`;
  const verdict = await acceptWrite({ kind: "status-change", before, after, actor, context: writeContext(ctx, undefined, request.reason) });
  if (!verdict.allowed) {
    const schema = verdict.findings.filter((f) => f.rule === "schema");
    if (schema.length && schema.length === verdict.findings.length) {
      const where = schema.map(whereOf);
      throw new ApiError(422, "invalid-note", `the note would not be valid: ${where.map((p) => `${p.field}: ${p.message}`).join("; ")}`, { where });
    }
    const unmet = unmetOf(verdict.findings);
    throw new ApiError(422, "transition-refused", `${label.replace(/…$/, "")} is refused: ${unmet.join("; ")}`, { unmet });
  }
  const note = validNote(after);
  // The approval the machine just counted, named where git can check it.
  const approvers = isVerifiedStatus(note.status) ? standingApprovals(ctx.review.verdicts, ctx.noteRevision, ctx.authors) : [];

  let commit;
  try {
    commit = await store.commit({
      ref: draftRef(id),
      expected: copy.draftHead,
      parent: copy.draftHead ?? copy.mainHead,
      author: commitPerson(actor),
      message: withTrailers(describeTransition(id, before, note, label, request.reason), formatTrailers({ approvers })),
      changes: { [notePath(id)]: serializeNote(note) },
    });
  } catch (e) {
    if (e instanceof RefConflictError) throw await staleRevision(await loadNoteContext(id, store), request.revision, { to: request.to });
    throw e;
  }
  await announce({
    kind: "status-change",
    actor: { id: actor.id, name: actor.name },
    commit: commit.commit,
    before,
    after: note,
    reason: request.reason,
    published: copy.onMain != null,
  });
  return viewOf(await afterDraftCommit(ctx, commit));
}
