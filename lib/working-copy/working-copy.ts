import { getContentStore, type ContentStore, type StoredNote } from "@/lib/working-copy/content-store";
import type { FileRevision, Oid } from "@/lib/store/types";
import { isPublishedStatus } from "@/lib/notes/schema";
import { actorIdOfEmail } from "@/lib/auth/identity";
import { notFound } from "@/lib/api/errors";
import { draftRef, MAIN_REF, noMain, notePath } from "./layout";

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

export async function workingCopy(id: string, store?: ContentStore): Promise<WorkingCopy> {
  const s = store ?? (await getContentStore());
  const [draftHead, mainHead] = await Promise.all([s.resolve(draftRef(id)), s.resolve(MAIN_REF)]);
  return workingCopyAt(s, id, { draftHead, mainHead });
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

/** Revisions of the note's file on this copy's line, newest first. */
export async function revisionsOf(copy: WorkingCopy, limit?: number, store?: ContentStore): Promise<FileRevision[]> {
  const s = store ?? (await getContentStore());
  return s.history(notePath(copy.id), copy.draftHead ?? copy.mainHead, limit === undefined ? {} : { limit });
}

/** The accounts that wrote this copy's revisions: none of them may approve it. */
export async function revisionAuthors(copy: WorkingCopy, store?: ContentStore): Promise<string[]> {
  return authorsOf(await revisionsOf(copy, undefined, store));
}

/** The accounts that wrote these revisions, newest first. */
export const authorsOf = (revisions: readonly FileRevision[]): string[] => [...new Set(revisions.map((r) => actorIdOfEmail(r.author.email)))];

/** Ids of the notes published on main now. */
export async function publishedIds(mainHead: Oid, store?: ContentStore): Promise<Set<string>> {
  const snapshot = await (store ?? (await getContentStore())).snapshot(mainHead);
  return new Set(snapshot.notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [n.id] : [])));
}
