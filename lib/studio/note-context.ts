import "server-only";
import type { ContentStore, Snapshot } from "@/lib/working-copy/content-store";
import type { FileRevision, Oid, Revision } from "@/lib/store/types";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { phaseTitlesOf, type PhaseTitles } from "@/lib/phases/schema";
import { readPhases } from "@/lib/content/phases";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { config } from "@/lib/env";
import { deriveReviewState, type DerivedReview } from "@/lib/review/derive";
import { readReviewLog, type ReviewLog } from "@/lib/review/review-log";
import type { NoteWriteContext, RevisionReview } from "@/lib/rules/accept-write";
import { ordersOf, type EditorialOrders } from "@/lib/rules/editorial-order";
import { sameNoteApartFrom, standingApprovals } from "@/lib/rules/approval-trailers";
import { notePath } from "@/lib/working-copy/layout";
import { authorsOf, isOnMain, readNoteLine, type NoteLine, type WorkingCopy } from "@/lib/working-copy/working-copy";

/**
 * Everything one request about one note needs, read once: the three refs (main, the draft, the
 * review) resolved together, then main's notes and phases, the note's revisions on its line and
 * its review records at exactly those commits. The rules judge this context and the answer is
 * built from it, so one answer never mixes two states of the repository.
 */

export type MainFacts = {
  commit: Oid;
  snapshot: Snapshot;
  publishedIds: Set<string>;
  /** Every note with a file on main, whatever its status (the acceptance function's `noteIds`). */
  noteIds: Set<string>;
  /** The editorial order a note new to main takes: above every note there. */
  nextOrder: number;
  /** The editorial order of the notes on main: order → ids (the acceptance function's `orders`). */
  orders: EditorialOrders;
  /** The phases a note may name (the phase files on main). */
  phases: string[];
  /** The renamed ones' titles (name → title), which the studio shows them by. */
  phaseTitles: PhaseTitles;
};

/** One request's note line (lib/working-copy/working-copy.ts) with main's facts and the review derived from the same heads. */
export type NoteContext = Omit<NoteLine, "reviewHead"> & {
  main: MainFacts;
  reviewLog: ReviewLog;
  review: DerivedReview;
};

export async function mainFacts(store: ContentStore, commit: Oid): Promise<MainFacts> {
  const [snapshot, phases] = await Promise.all([store.snapshot(commit), readPhases(store, commit)]);
  const valid = snapshot.notes.flatMap((n) => (n.ok ? [n.note] : []));
  return {
    commit,
    snapshot,
    publishedIds: new Set(snapshot.notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [n.id] : []))),
    noteIds: new Set(snapshot.notes.map((n) => n.id)),
    nextOrder: Math.max(0, ...valid.map((n) => n.order)) + 1,
    orders: ordersOf(valid),
    phases: phases.map((p) => p.phase.name),
    phaseTitles: phaseTitlesOf(phases.map((p) => p.phase)),
  };
}

export async function loadNoteContext(id: string, store?: ContentStore): Promise<NoteContext> {
  // The refs are read once, by the loader review reads through too (lib/working-copy/working-copy.ts).
  const { reviewHead, ...line } = await readNoteLine(id, store);
  const [main, reviewLog] = await Promise.all([mainFacts(line.store, line.copy.mainHead), readReviewLog(line.store, id, reviewHead)]);
  return withReview({ ...line, main, reviewLog });
}

function withReview(ctx: Omit<NoteContext, "review">): NoteContext {
  const currentNote = ctx.copy.stored?.ok ? ctx.copy.stored.note : null;
  const review = deriveReviewState(ctx.reviewLog.records, { currentRevision: ctx.noteRevision, currentNote, revisionAuthors: ctx.authors });
  review.problems.unshift(...ctx.reviewLog.problems);
  return { ...ctx, review };
}

/** The context of a note this request just created: its new draft branch at `head` (a commit, or main's head for an id only claimed). */
export async function newNoteContext(store: ContentStore, id: string, main: MainFacts, head: Revision | null): Promise<NoteContext> {
  const draftHead = head?.commit ?? main.commit;
  const stored = head ? await store.readNote(id, head.commit) : null;
  const copy: WorkingCopy = { id, source: stored ? "draft" : "new", revision: draftHead, draftHead, mainHead: main.commit, stored, onMain: null };
  const revisions: FileRevision[] = head ? [{ ...head, path: notePath(id), blob: stored?.blob ?? null }] : [];
  const reviewLog = await readReviewLog(store, id);
  return withReview({ id, store, copy, revisions, authors: authorsOf(revisions), noteRevision: draftHead, main, reviewLog });
}

/** The context after this request's own commit on the draft branch: the same reads, plus what was written. */
export async function afterDraftCommit(ctx: NoteContext, commit: Revision): Promise<NoteContext> {
  const path = notePath(ctx.id);
  const stored = await ctx.store.readNote(ctx.id, commit.commit);
  const revision: FileRevision = { ...commit, path, blob: stored?.blob ?? null };
  const revisions = [revision, ...ctx.revisions];
  const copy: WorkingCopy = { ...ctx.copy, source: "draft", revision: commit.commit, draftHead: commit.commit, stored };
  return withReview({ ...ctx, copy, revisions, authors: authorsOf(revisions), noteRevision: commit.commit });
}

/** What the rules need to know about a write to this note. */
export function writeContext(ctx: NoteContext, review: RevisionReview = reviewOfRevision(ctx, ctx.noteRevision), reason?: string): NoteWriteContext {
  const onMain = isOnMain(ctx.copy) && ctx.copy.onMain?.ok ? ctx.copy.onMain.note : null;
  return {
    phases: ctx.main.phases,
    publishedIds: ctx.main.publishedIds,
    orders: ctx.main.orders,
    onMain,
    review,
    requiredApprovals: config().reviewApprovals,
    ...(reason ? { reason } : {}),
  };
}

/** The verdicts on `revision`, and who wrote the note up to it. */
export function reviewOfRevision(ctx: NoteContext, revision: Oid): RevisionReview {
  const at = ctx.revisions.findIndex((r) => r.commit === revision);
  const authors = at < 0 ? ctx.authors : authorsOf(ctx.revisions.slice(at));
  return { revision, revisionAuthors: authors, verdicts: ctx.review.state.verdicts };
}

export type Approval = { review: RevisionReview; approvers: { reviewer: string; record: string }[] };

/**
 * The approval a publish of the draft head carries: the newest revision on the draft's line whose
 * note is the head's apart from its status (the promotion changes only that), with each standing
 * approval of it by a reviewer who wrote none of its revisions. With none, the head itself (and no
 * approvers): the rules then say what is missing.
 */
export async function approvalForPublish(ctx: NoteContext): Promise<Approval> {
  const head = ctx.copy.stored?.ok ? ctx.copy.stored.note : null;
  const draftHead = ctx.copy.revision;
  const fallback: Approval = { review: { ...reviewOfRevision(ctx, ctx.noteRevision), draftHead }, approvers: [] };
  if (!head) return fallback;
  for (const [i, r] of ctx.revisions.entries()) {
    const then = i === 0 ? ctx.copy.stored : await ctx.store.readNote(ctx.id, r.commit);
    if (!then?.ok || !sameNoteApartFrom(then.note, head)) break;
    const approvers = standingApprovals(ctx.review.verdicts, r.commit, authorsOf(ctx.revisions.slice(i)));
    if (approvers.length) return { review: { ...reviewOfRevision(ctx, r.commit), draftHead }, approvers };
  }
  return fallback;
}

export const noteOf = (ctx: NoteContext): Note | null => (ctx.copy.stored?.ok ? ctx.copy.stored.note : null);

/** The account id a commit's author stands for. */
export const actorOfRevision = (r: Revision) => actorIdOfEmail(r.author.email);
