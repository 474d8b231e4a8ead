import "server-only";
import type { ContentStore } from "@/lib/working-copy/content-store";
import type { FileRevision, Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { readNoteLine, type NoteLine, type WorkingCopy } from "@/lib/working-copy/working-copy";

/**
 * The note a review is about, at the revision reviewers judge: the draft's head, or (with no draft)
 * the commit that last changed the note on main. The same revision the status machine promotes.
 * Read through the loader the studio's writes use (readNoteLine): the refs once per request, and
 * the review records at the review ref's head read then.
 */
export type ReviewTarget = {
  id: string;
  copy: WorkingCopy;
  currentRevision: Oid;
  currentNote: Note | null;
  /** The note file's revisions on the copy's line, newest first. */
  revisions: FileRevision[];
  /** Accounts that wrote the note's revisions: none of them gives a verdict on it. */
  authors: string[];
  /** refs/reviews/<id> when the refs were read (null: no review yet); a write answers at its own new head. */
  reviewHead: Oid | null;
  store: ContentStore;
};

export async function reviewTarget(id: string, store?: ContentStore): Promise<ReviewTarget> {
  return reviewTargetOf(await readNoteLine(id, store)); // 404 for a note that does not exist
}

/** The review target of a line this request already read (the review page reads the note and its review from one line). */
export function reviewTargetOf(line: NoteLine): ReviewTarget {
  return {
    id: line.id,
    copy: line.copy,
    currentRevision: line.noteRevision,
    currentNote: line.copy.stored?.ok ? line.copy.stored.note : null,
    revisions: line.revisions,
    authors: line.authors,
    reviewHead: line.reviewHead,
    store: line.store,
  };
}
