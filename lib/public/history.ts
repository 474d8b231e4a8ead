import { approversOf } from "@/lib/content/approvers";
import { getPublishedHistory, type PublishedRevision, type PublishedView } from "@/lib/content/published";
import { APP_IDENTITY } from "@/lib/store/api";
import { changedBy } from "@/lib/notes/byline";
import { revisionWords } from "./revision-words";

/**
 * A note's public history as the history page and its Markdown twin both tell it: each published
 * revision, newest first, with what it did in words (from the note before and after it), who made
 * it (the byline's rule) and who approved it (by name, from its commit's trailers). One function,
 * so the two cannot disagree.
 */

export type HistoryEntry = PublishedRevision & {
  /** "Promoted to verified checkpoint", "Decision and Evidence changed", … */
  words: string;
  /** Who made it, as the note page's byline names people (lib/notes/byline.ts). */
  by: string;
  /** Reviewers whose approval the commit names, by display name; empty when it names none. */
  approvedBy: string[];
  /** The published revision before it, or null for the first. */
  previous: PublishedRevision | null;
};

export async function publishedHistory(view: Pick<PublishedView, "site">, id: string): Promise<HistoryEntry[]> {
  const revisions = await getPublishedHistory(id);
  return Promise.all(
    revisions.map(async (revision, i) => {
      const previous = revisions[i + 1] ?? null;
      return {
        ...revision,
        previous,
        words: revisionWords(previous?.note ?? null, revision.note),
        by: changedBy(revision.author, APP_IDENTITY, view.site.author),
        approvedBy: await approversOf(id, revision.message),
      };
    }),
  );
}
