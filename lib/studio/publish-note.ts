import { getContentStore, NothingToCommitError, RefConflictError } from "@/lib/store";
import type { ContentStore, Oid } from "@/lib/store/types";
import { serializeNote } from "@/lib/notes/markdown";
import { checkPublish } from "@/lib/rules/status-machine";
import { commitPerson, type StudioActor } from "@/lib/auth/identity";
import { ApiError } from "@/lib/api/errors";
import { fieldsOf } from "@/lib/validations/note";
import type { PublishNoteRequest } from "@/lib/validations/studio";
import { staleRevision } from "./conflict";
import { describePublish } from "./describe-change";
import { viewOf, type NoteView } from "./note-view";
import { refuseUnknownPhase } from "./phase-names";
import { policyFindings } from "./policy";
import { reviewsOf } from "./reviews";
import { draftRef, MAIN_REF, notePath } from "./refs";
import { isFresh, workingCopy, type WorkingCopy } from "./working-copy";

/**
 * Publish: the draft's note onto main as one commit that touches only its file, then the draft
 * branch is removed. Refused while the note has schema errors, policy findings or a status that is
 * not published (422), and when main's copy of the note changed since the draft began (409: a
 * plain-git edit on main would otherwise be overwritten unseen).
 */

export type PublishResult = { commit: Oid | null; draftKept: boolean; view: NoteView };

const ATTEMPTS = 5;

export async function publishNote(actor: StudioActor, id: string, request: PublishNoteRequest): Promise<PublishResult> {
  const store = await getContentStore();
  const copy = await workingCopy(id, store);
  if (copy.source === "published") {
    throw new ApiError(422, "publish-refused", `${id} has no draft: what is published is already its latest version`, { unmet: [`there is no draft of ${id} to publish`] });
  }
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(copy, request.revision, { publish: true });
  if (!copy.stored) throw new ApiError(422, "publish-refused", `${id} has never been saved`, { unmet: ["the draft has never been saved"] });
  if (!copy.stored.ok) {
    const where = copy.stored.errors.map((e) => ({ field: e.field, line: e.line, message: e.message }));
    throw new ApiError(422, "invalid-note", `${id}'s draft is not a valid note: ${where.map((w) => `${w.field}: ${w.message}`).join("; ")}`, { where, unmet: where.map((w) => `${w.field}: ${w.message}`) });
  }
  const note = copy.stored.note;
  await refuseUnknownPhase(store, copy.mainHead, note);
  const verdict = checkPublish(note);
  const findings = await policyFindings(note);
  // A reviewer's "request changes" on exactly the revision being published stands until a new save or their next verdict.
  const changesRequested = (await reviewsOf(id)).verdicts
    .filter((v) => v.verdict === "request-changes" && v.revision === copy.revision && !v.resolved)
    .map((v) => `${v.reviewer} requested changes on revision ${copy.revision.slice(0, 7)}; publishing waits until the changes are made (a new save) or ${v.reviewer} approves it`);
  if (!verdict.allowed || findings.length || changesRequested.length) {
    const unmet = [...verdict.unmet, ...changesRequested, ...findings.map((f) => `${f.field} line ${f.line}: ${f.message}`)];
    throw new ApiError(422, "publish-refused", `${id} cannot be published yet: ${unmet.join("; ")}`, { unmet, where: findings });
  }
  await refuseIfMainChanged(store, copy, request.main);

  let commit: Oid | null = null;
  for (let attempt = 1; ; attempt++) {
    const mainHead = await store.resolve(MAIN_REF);
    if (!mainHead) throw new Error(`the content repository has no ${MAIN_REF}`);
    const main = await store.snapshot(mainHead);
    const firstTime = !main.notes.some((n) => n.id === id);
    // A note new to main goes to the top of "All decision records".
    const order = firstTime ? Math.max(0, ...main.notes.flatMap((n) => (n.ok ? [n.note.order] : []))) + 1 : note.order;
    try {
      const revision = await store.commit({
        ref: MAIN_REF,
        expected: mainHead,
        author: commitPerson(actor),
        message: describePublish(id, note, copy.revision, firstTime),
        changes: { [notePath(id)]: serializeNote({ ...note, order }) },
      });
      commit = revision.commit;
      break;
    } catch (e) {
      if (e instanceof NothingToCommitError) break; // main already holds exactly this note
      // Another note was published a moment ago; this commit touches only our file, so build on theirs.
      if (e instanceof RefConflictError && attempt < ATTEMPTS) continue;
      throw e;
    }
  }

  let draftKept = false;
  try {
    await store.updateRef(draftRef(id), copy.revision, null);
  } catch (e) {
    // Someone saved to the draft while it was being published: their work stays on the branch.
    if (!(e instanceof RefConflictError)) throw e;
    draftKept = true;
  }
  return { commit, draftKept, view: await viewOf(await workingCopy(id, store)) };
}

/**
 * Main's copy of the note must be the one the draft started from (the draft's history contains
 * main's last change to the file), or one the author has acknowledged by sending that main commit.
 */
async function refuseIfMainChanged(store: ContentStore, copy: WorkingCopy, acknowledged: string | undefined) {
  const path = notePath(copy.id);
  const [lastOnMain] = await store.history(path, MAIN_REF, { limit: 1 });
  if (!lastOnMain || lastOnMain.blob === null) return;
  const draftLine = await store.history(path, copy.revision);
  if (draftLine.some((r) => r.commit === lastOnMain.commit)) return;
  if (acknowledged && /^[0-9a-f]{40}$/.test(acknowledged)) {
    const seen = await store.readNote(copy.id, acknowledged).catch(() => null);
    if (seen && seen.blob === lastOnMain.blob) return;
  }
  const onMain = await store.readNote(copy.id, lastOnMain.commit);
  throw new ApiError(
    409,
    "main-changed",
    `${copy.id} on main changed after this draft began (commit ${lastOnMain.commit.slice(0, 7)} by ${lastOnMain.author.name}); publishing would overwrite it. Take what you need from main's version, save the draft, and publish again with "main": "${lastOnMain.commit}".`,
    {},
    {
      main: lastOnMain.commit,
      theirs: { source: "main", commit: lastOnMain.commit, author: lastOnMain.author, date: lastOnMain.date, fields: onMain?.ok ? fieldsOf(onMain.note) : null },
      yours: copy.stored?.ok ? fieldsOf(copy.stored.note) : null,
    },
  );
}
