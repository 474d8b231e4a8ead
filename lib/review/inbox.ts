import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import type { StudioActor } from "@/lib/auth/identity";
import type { Status } from "@/lib/notes/schema";
import { DRAFTS_PREFIX, idOfDraftRef } from "@/lib/working-copy/layout";
import { reviewOf } from "./read-review";
import { REVIEWS_PREFIX } from "./review-log";
import { reviewTarget } from "./review-target";
import type { ReviewThread } from "./derive";

/**
 * What needs someone's attention: drafts awaiting their verdict (reviewers), threads awaiting their
 * reply, and each note's review at a glance (open threads, verdict on the current revision) for the studio list.
 */

export type ReviewSummary = {
  id: string;
  title: string | null;
  status: Status | null;
  draft: boolean;
  currentRevision: string;
  openThreads: number;
  outdatedThreads: number;
  verdictState: "approved" | "changes-requested" | "awaiting";
  staleVerdicts: number;
};

export type Inbox = {
  awaitingVerdict: ReviewSummary[];
  awaitingReply: {
    id: string;
    title: string | null;
    thread: Pick<ReviewThread, "id" | "section" | "quote" | "outdated">;
    last: { by: string; at: string; text: string };
  }[];
  notes: ReviewSummary[];
};

export async function reviewInbox(actor: StudioActor): Promise<Inbox> {
  const store = await getContentStore();
  const [drafts, reviews] = await Promise.all([store.listRefs(DRAFTS_PREFIX), store.listRefs(REVIEWS_PREFIX)]);
  const draftIds = new Set(drafts.flatMap((d) => idOfDraftRef(d.ref) ?? []));
  const ids = [...new Set([...draftIds, ...reviews.map((r) => r.ref.slice(REVIEWS_PREFIX.length))])].sort();
  const inbox: Inbox = { awaitingVerdict: [], awaitingReply: [], notes: [] };

  const loaded = await Promise.all(
    ids.map(async (id) => {
      try {
        const target = await reviewTarget(id);
        return { target, review: await reviewOf(target) };
      } catch {
        return null; // a review ref for a note that no longer exists anywhere: nothing to act on
      }
    }),
  );
  for (const entry of loaded) {
    if (!entry) continue;
    const { target, review } = entry;
    const summary: ReviewSummary = {
      id: target.id,
      title: target.currentNote?.title ?? null,
      status: target.currentNote?.status ?? null,
      draft: draftIds.has(target.id),
      currentRevision: review.currentRevision,
      openThreads: review.threads.filter((t) => !t.resolved).length,
      outdatedThreads: review.threads.filter((t) => !t.resolved && t.outdated).length,
      verdictState: review.verdictState,
      staleVerdicts: review.verdicts.filter((v) => v.stale && !v.replaced).length,
    };
    inbox.notes.push(summary);
    const mine = review.verdicts.some((v) => v.reviewer.id === actor.id && v.revision === review.currentRevision);
    if (actor.role === "reviewer" && summary.draft && target.currentNote && !target.authors.includes(actor.id) && !mine) {
      inbox.awaitingVerdict.push(summary);
    }
    const isAuthor = target.authors.includes(actor.id);
    for (const t of review.threads) {
      const last = t.comments.at(-1);
      if (t.resolved || !last || last.by.id === actor.id) continue;
      if (!isAuthor && !t.comments.some((c) => c.by.id === actor.id)) continue;
      inbox.awaitingReply.push({
        id: target.id,
        title: summary.title,
        thread: { id: t.id, section: t.section, outdated: t.outdated, ...(t.quote ? { quote: t.quote } : {}) },
        last: { by: last.by.name, at: last.editedAt ?? last.at, text: last.text },
      });
    }
  }
  return inbox;
}
