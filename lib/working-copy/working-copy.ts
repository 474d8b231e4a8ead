import { getContentStore, type ContentStore, type StoredNote } from "@/lib/working-copy/content-store";
import type { FileRevision, Oid } from "@/lib/store/types";
import { isPublishedStatus } from "@/lib/notes/schema";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { notFound } from "@/lib/rules/api-errors";
import { draftRef, MAIN_REF, noMain, notePath, reviewRef } from "./layout";

/**
 * The version of a note the studio works on: its draft branch when there is one, else the
 * published note on main (editing it starts a draft). `revision` is what an editor carries and
 * sends back; a save based on anything older is stale.
 */

export type WorkingCopy = {
  id: string;
  /** draft: drafts/<id> exists; published: only on main; new: a draft branch reserved, never saved. */
  source: "draft" | "published" | "new";
  revision: Oid;
  draftHead: Oid | null;
  mainHead: Oid;
  /** The note file of this version (null for a new draft). */
  stored: StoredNote | null;
  /** The note on main, if any. */
  onMain: StoredNote | null;
};

/**
 * One request's read of a note's line, shared by the studio (lib/studio/note-context.ts) and review
 * (lib/review/review-target.ts): main, the draft branch and the review ref resolved together, once,
 * then the working copy and the note file's revisions at exactly those commits. Everything either
 * side reads next (main's notes, the review records) is read at these heads, so one answer never
 * mixes two states of the repository.
 */
export type NoteLine = {
  id: string;
  store: ContentStore;
  copy: WorkingCopy;
  /** The note file's revisions on the copy's line, newest first. */
  revisions: FileRevision[];
  /** Accounts that wrote those revisions: none of them approves the note. */
  authors: string[];
  /** The revision reviewers judge: the draft's head, or the commit that last changed the note on main. */
  noteRevision: Oid;
  /** refs/reviews/<id> at the same moment (null: no review yet). */
  reviewHead: Oid | null;
};

export async function readNoteLine(id: string, store?: ContentStore): Promise<NoteLine> {
  const s = store ?? (await getContentStore());
  const [draftHead, mainHead, reviewHead] = await Promise.all([s.resolve(draftRef(id)), s.resolve(MAIN_REF), s.resolve(reviewRef(id))]);
  const copy = await workingCopyAt(s, id, { draftHead, mainHead }); // 404 for a note that does not exist
  const revisions = await s.history(notePath(id), copy.draftHead ?? copy.mainHead);
  return { id, store: s, copy, revisions, authors: authorsOf(revisions), noteRevision: copy.draftHead ?? revisions[0]?.commit ?? copy.mainHead, reviewHead };
}

/** The working copy at heads the caller already resolved (one read of the refs per request). */
export async function workingCopyAt(s: ContentStore, id: string, heads: { draftHead: Oid | null; mainHead: Oid | null }): Promise<WorkingCopy> {
  const { draftHead, mainHead } = heads;
  if (!mainHead) throw noMain();
  const onMain = await s.readNote(id, mainHead);
  if (draftHead) {
    const stored = await s.readNote(id, draftHead);
    return { id, source: stored ? "draft" : "new", revision: draftHead, draftHead, mainHead, stored, onMain };
  }
  if (!onMain) throw notFound(`there is no note ${id}: no draft branch and nothing on main`);
  return { id, source: "published", revision: mainHead, draftHead: null, mainHead, stored: onMain, onMain };
}

/**
 * Is `revision` still what this working copy is? A draft must be at exactly that commit; a note
 * opened from main stays fresh while its file on main is unchanged (other notes may be published).
 */
export async function isFresh(copy: WorkingCopy, revision: string, store?: ContentStore): Promise<boolean> {
  if (copy.source !== "published") return revision === copy.revision;
  if (revision === copy.mainHead) return true;
  const s = store ?? (await getContentStore());
  const then = await s.readNote(copy.id, revision).catch(() => null);
  return then !== null && then.blob === copy.stored?.blob;
}

/** Is the note published on main (with a published status)? */
export const isOnMain = (copy: WorkingCopy) => copy.onMain?.ok === true && isPublishedStatus(copy.onMain.note.status);

/** The accounts that wrote these revisions, newest first. */
export const authorsOf = (revisions: readonly FileRevision[]): string[] => [...new Set(revisions.map((r) => actorIdOfEmail(r.author.email)))];

/** Ids of the notes published on main now. */
export async function publishedIds(mainHead: Oid, store?: ContentStore): Promise<Set<string>> {
  const snapshot = await (store ?? (await getContentStore())).snapshot(mainHead);
  return new Set(snapshot.notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [n.id] : [])));
}
