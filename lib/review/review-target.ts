import "server-only";
import { getContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { revisionAuthors, revisionsOf, workingCopy, type WorkingCopy } from "@/lib/working-copy/working-copy";

/**
 * The note a review is about, at the revision reviewers judge: the draft's head, or (with no draft)
 * the commit that last changed the note on main. The same revision the status machine promotes.
 */
export type ReviewTarget = {
  id: string;
  copy: WorkingCopy;
  currentRevision: Oid;
  currentNote: Note | null;
  /** Accounts that wrote the note's revisions: none of them gives a verdict on it. */
  authors: string[];
  store: ContentStore;
};

export async function reviewTarget(id: string): Promise<ReviewTarget> {
  const store = await getContentStore();
  const copy = await workingCopy(id, store); // 404 for a note that does not exist
  const [[last], authors] = await Promise.all([revisionsOf(copy, 1), revisionAuthors(copy)]);
  return {
    id,
    copy,
    currentRevision: copy.draftHead ?? last?.commit ?? copy.mainHead,
    currentNote: copy.stored?.ok ? copy.stored.note : null,
    authors,
    store,
  };
}
