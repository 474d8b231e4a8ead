import { approversOf } from "@/lib/content/approvers";
import { lastChange } from "@/lib/content/last-change";
import { getPublishedHistory, type PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";
import { readSide } from "@/lib/read-model/read-side";
import { isVerifiedStatus } from "@/lib/rules/phase-closeout";
import { lastClaimChange } from "./revision-words";

/**
 * The note page's verification line for a verified note: when its claim last changed ("Decision
 * changed", or "Verified" when that was the promotion), in which revision, and who approved it.
 *
 * A note's own file history decides it, and that history is the same from every commit until the
 * next one that touches the file: so the answer is kept by note id and last-change commit (which
 * the view's last-change dates already know), and a new commit on main reads the history of no
 * note it did not change. In the read side's state (lib/read-model/read-side.ts); bounded.
 */

export type ClaimChange = {
  /** "Verified", "Reclassified", "Decision and Evidence changed". */
  words: string;
  /** The revision it happened in: its commit and date. */
  commit: string;
  date: string;
  /** Who approved that revision, by display name; empty when its commit names no approval. */
  approvedBy: string[];
};

export type Found = { words: string; commit: string; date: string; message: string } | null;
const found = () => (readSide().claims ??= new Map());
const MAX_KEPT = 20_000;

export async function claimChange(view: PublishedView, note: Note): Promise<ClaimChange | null> {
  if (!isVerifiedStatus(note.status)) return null;
  const last = await lastChange(view, note.id);
  if (!last) return null;
  const key = `${note.id}\0${last.commit}`;
  const kept = found();
  let answer = kept.get(key);
  if (!answer) {
    answer = pick(note.id, last.commit);
    if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, answer);
    // A failed read is tried again on the next request, not kept.
    answer.catch(() => kept.get(key) === answer && kept.delete(key));
  }
  const at = await answer;
  if (!at) return null;
  // Names are looked up each time (kept per record by approversOf): a review not readable now may be later.
  return { words: at.words, commit: at.commit, date: at.date, approvedBy: await approversOf(note.id, at.message) };
}

async function pick(id: string, lastCommit: string): Promise<Found> {
  const revisions = await getPublishedHistory(id, lastCommit);
  const change = lastClaimChange(revisions);
  const revision = change ? revisions[change.at] : undefined;
  return change && revision ? { words: change.words, commit: revision.commit, date: revision.date, message: revision.message } : null;
}
