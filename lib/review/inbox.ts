import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import type { StudioActor } from "@/lib/rules/identity";
import type { Note, Status } from "@/lib/notes/schema";
import { comparableFields } from "@/lib/diff/fields";
import { DRAFTS_PREFIX, idOfDraftRef } from "@/lib/working-copy/layout";
import { reviewOf, type ReviewView } from "./read-review";
import { REVIEWS_PREFIX } from "./review-log";
import { reviewTarget, type ReviewTarget } from "./review-target";
import type { ReviewRequest, ReviewThread } from "./derive";

/**
 * What needs someone's attention. For a reviewer, three lists of notes waiting for a verdict:
 * asked of them by name; waiting for any reviewer (drafts put up for publishing, published
 * hypotheses put up for verification); changed since they last gave a verdict. Each entry says
 * what changed since they last looked. For everyone, threads awaiting their reply, and each note's
 * review at a glance (open threads, verdict on the current revision) for the studio list.
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

/** A note waiting for this reviewer's verdict, and what changed since they last looked. */
export type InboxEntry = ReviewSummary & {
  /** Fields changed since `since` (the reviewer's last verdict, else the published version); null: a note never published, all new to them. */
  changed: string[] | null;
  since: { kind: "your-verdict" | "published"; revision: string; verdict?: "approve" | "request-changes"; at?: string } | null;
  /** The request that asks for this review, when one does. */
  request: { by: string; at: string; named: boolean; purpose: ReviewRequest["purpose"]; text?: string } | null;
};

export type Inbox = {
  requested: InboxEntry[];
  waiting: InboxEntry[];
  changedSinceReview: InboxEntry[];
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
  const inbox: Inbox = { requested: [], waiting: [], changedSinceReview: [], awaitingReply: [], notes: [] };

  const loaded = await Promise.all(
    ids.map(async (id) => {
      try {
        const target = await reviewTarget(id);
        return { target, review: await reviewOf(target) };
      } catch {
        return null; // a review ref for a note that no longer exists anywhere (a discarded draft): nothing to act on
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
    if (actor.role === "reviewer") {
      const placed = await placeForReviewer(actor, target, review, summary);
      if (placed) inbox[placed.list].push(placed.entry);
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

type ListName = "requested" | "waiting" | "changedSinceReview";

/**
 * Which of the three lists a note belongs in for this reviewer, if any: asked by name (and not
 * answered since), else changed since their last verdict, else waiting for anyone. Nothing when
 * they wrote it, or already judged its current revision.
 */
async function placeForReviewer(
  actor: StudioActor,
  target: ReviewTarget,
  review: ReviewView,
  summary: ReviewSummary,
): Promise<{ list: ListName; entry: InboxEntry } | null> {
  const note = target.currentNote;
  if (!note || target.authors.includes(actor.id)) return null;
  const mine = review.verdicts.filter((v) => v.reviewer.id === actor.id);
  if (mine.some((v) => v.revision === review.currentRevision && !v.replaced)) return null;
  const last = mine.at(-1) ?? null;
  const askedOfMe = review.requests.filter((r) => r.reviewers.some((p) => p.id === actor.id) && (!last || r.at > last.at)).at(-1);
  const askedOfAnyone = review.requests.filter((r) => r.reviewers.length === 0 && r.revision === review.currentRevision).at(-1);
  const draft = target.copy.source !== "published";

  let list: ListName;
  if (askedOfMe) list = "requested";
  else if (last) list = "changedSinceReview";
  // Put up for publishing (a draft past "draft"), or a published hypothesis its author asked to have verified.
  else if ((draft && note.status !== "draft") || (askedOfAnyone && (draft || note.status === "hypothesis"))) list = "waiting";
  else return null;

  const request = askedOfMe ?? askedOfAnyone ?? null;
  const onMain = target.copy.onMain?.ok ? target.copy.onMain.note : null;
  let since: InboxEntry["since"] = null;
  let base: Note | null = null;
  if (last) {
    const then = await target.store.readNote(target.id, last.revision).catch(() => null);
    base = then?.ok ? then.note : null;
    since = { kind: "your-verdict", revision: last.revision, verdict: last.verdict, at: last.at };
  } else if (onMain && draft) {
    base = onMain;
    since = { kind: "published", revision: target.copy.mainHead };
  }
  return {
    list,
    entry: {
      ...summary,
      changed: base ? changedLabels(base, note) : since ? [] : null,
      since,
      request: request
        ? {
            by: request.by.name,
            at: request.at,
            named: request.reviewers.length > 0,
            purpose: request.purpose,
            ...(request.text ? { text: request.text } : {}),
          }
        : null,
    },
  };
}

/** The labels of the fields (and sections) that differ between two versions of a note, in the note's order. */
function changedLabels(before: Note, after: Note): string[] {
  const old = new Map(comparableFields(before).map((f) => [f.field, JSON.stringify(f.value)]));
  return comparableFields(after)
    .filter((f) => old.get(f.field) !== JSON.stringify(f.value))
    .map((f) => f.label);
}
