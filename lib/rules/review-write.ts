import type { Note, SectionKey } from "@/lib/notes/schema";
import { SECTIONS } from "@/lib/notes/schema";
import { scanText } from "./archive-policy";
import type { Actor } from "./status-machine";
import type { WriteFinding } from "./accept-write";

/**
 * The rules of review writes (threads, replies, comment edits, resolutions, verdicts on
 * refs/reviews/<id>), judged by acceptWrite like every other write. Pure: the caller reads the
 * review at the head it will append to, and the note at the revisions named, and passes them in.
 *
 * - Authors and reviewers comment; only reviewers give verdicts.
 * - A verdict is on the current revision only, and never by someone who wrote a revision of the note
 *   (an approval of one's own note counts for nothing, so it is refused rather than stored).
 * - A thread is on a saved revision of the note; a quoted passage is in that revision's section.
 * - Only a comment's writer edits it, and only to new text; a thread is resolved (or reopened) once.
 * - Comment text is held to the archive policy: refs/reviews travels with every mirror clone, so a
 *   credential pasted into a comment is as published as one in a note.
 */

export type ReviewWriteKind = "thread" | "reply" | "comment-edit" | "thread-resolve" | "thread-reopen" | "verdict" | "verdict-withdraw" | "review-request";

/** A verdict as the rules need it (lib/review/derive.ts's ReviewVerdict has this shape). */
export type ReviewVerdictFact = { id: string; reviewer: { id: string; name: string }; verdict: "approve" | "request-changes"; withdrawnAt?: string };

/** A thread as the rules need it (lib/review/derive.ts's ReviewThread has this shape). */
export type ReviewThreadFact = {
  id: string;
  section: SectionKey;
  resolved: boolean;
  comments: readonly { id: string; by: { id: string; name: string }; text: string }[];
};

export type ReviewWriteContext = {
  /** The note's id. */
  id: string;
  /** The revision reviewers judge now: the draft's head, or the commit that last changed the note on main. */
  currentRevision: string;
  /** The note at the current revision (null: no saved, valid revision). */
  currentNote: Note | null;
  /** Accounts that wrote the note's revisions. */
  authors: readonly string[];
  /** The review's threads at the head the record will be appended to. */
  threads: readonly ReviewThreadFact[];
  /** The review's verdicts at that head (for a withdrawal). */
  verdicts?: readonly ReviewVerdictFact[];
  /** Whether the note has an unpublished draft, and whether it is on main: what a review request asks for. */
  hasDraft?: boolean;
};

/** A reviewer a request names, as the accounts know them (role null: no such account). */
export type RequestedReviewer = { id: string; name: string; role: Actor["role"] | null };

type Who = Actor & { name?: string };

export type ReviewWrite =
  | {
      kind: "thread";
      actor: Who;
      /** The note at the revision the thread names (null: not a saved, valid revision of this note). */
      at: Note | null;
      after: { section: SectionKey; quote?: string; revision: string; text: string };
      context: ReviewWriteContext;
    }
  | { kind: "reply"; actor: Who; after: { thread: string; text: string }; context: ReviewWriteContext }
  | { kind: "comment-edit"; actor: Who; after: { thread: string; comment: string; text: string }; context: ReviewWriteContext }
  | { kind: "thread-resolve" | "thread-reopen"; actor: Who; after: { thread: string }; context: ReviewWriteContext }
  | { kind: "verdict"; actor: Who; after: { revision: string; verdict: "approve" | "request-changes"; summary?: string }; context: ReviewWriteContext }
  | { kind: "verdict-withdraw"; actor: Who; after: { verdict: string }; context: ReviewWriteContext }
  | { kind: "review-request"; actor: Who; after: { revision: string; reviewers: readonly RequestedReviewer[]; text?: string }; context: ReviewWriteContext };

export const REVIEW_WRITE_KINDS: readonly ReviewWriteKind[] = [
  "thread",
  "reply",
  "comment-edit",
  "thread-resolve",
  "thread-reopen",
  "verdict",
  "verdict-withdraw",
  "review-request",
];

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<SectionKey, string>;
const short = (revision: string) => revision.slice(0, 7);
const nameOf = (actor: Who) => actor.name ?? actor.id;

/**
 * Every finding, in the order a person should hear them: who may do this at all, what the write is
 * about (a thread, a comment, a revision), then its text. The API answers with the first one's
 * status (lib/review/write-review.ts) and lists them all.
 */
export async function reviewFindings(write: ReviewWrite): Promise<WriteFinding[]> {
  const { actor, context } = write;
  const findings: WriteFinding[] = [];
  const role = (message: string): WriteFinding => ({ rule: "role", field: "actor", message });

  if (write.kind === "verdict") {
    if (actor.role !== "reviewer") findings.push(role(`only reviewers give verdicts; ${nameOf(actor)} is signed in as an ${actor.role}`));
    if (context.authors.includes(actor.id)) {
      findings.push({
        rule: "self-review",
        field: "actor",
        message: `${nameOf(actor)} wrote a revision of ${context.id}, so cannot give a verdict on it: an approval must come from someone else`,
      });
    }
    if (!context.currentNote)
      findings.push({ rule: "reviewable", field: "revision", message: `${context.id} has no saved, valid revision to give a verdict on` });
    else if (write.after.revision !== context.currentRevision) {
      findings.push({
        rule: "revision",
        field: "revision",
        message: `${context.id} is now at revision ${short(context.currentRevision)}, not ${short(write.after.revision)}: a verdict counts for the revision it names, so read the current one and give it there`,
      });
    }
    if (write.after.summary) findings.push(...(await policy("summary", write.after.summary)));
    return findings;
  }

  if (write.kind === "verdict-withdraw") {
    const v = context.verdicts?.find((x) => x.id === write.after.verdict);
    if (!v) return [{ rule: "verdict", field: "verdict", message: `${context.id} has no verdict ${write.after.verdict}` }];
    if (v.reviewer.id !== actor.id) findings.push(role(`only ${v.reviewer.name} withdraws their own request for changes`));
    if (v.verdict !== "request-changes")
      findings.push({ rule: "verdict", field: "verdict", message: "an approval is not withdrawn: give a new verdict instead" });
    else if (v.withdrawnAt) findings.push({ rule: "verdict", field: "withdrawn", message: "this request for changes is already withdrawn" });
    return findings;
  }

  if (write.kind === "review-request") {
    const { revision, reviewers, text } = write.after;
    if (actor.role !== "author") findings.push(role(`only authors ask for a review; ${nameOf(actor)} is signed in as a ${actor.role}`));
    if (!context.currentNote) findings.push({ rule: "reviewable", field: "revision", message: `${context.id} has no saved, valid revision to review` });
    else if (revision !== context.currentRevision) {
      findings.push({
        rule: "revision",
        field: "revision",
        message: `${context.id} is now at revision ${short(context.currentRevision)}, not ${short(revision)}: ask for a review of the revision reviewers will read`,
      });
    } else if (!context.hasDraft && context.currentNote.status !== "hypothesis") {
      findings.push({
        rule: "reviewable",
        field: "revision",
        message: `${context.id} has no draft and is ${context.currentNote.status}: there is nothing to review; save a change first (a published hypothesis can be put up for verification)`,
      });
    }
    for (const r of reviewers) {
      if (r.role === null) findings.push({ rule: "reviewer", field: "reviewers", message: `${r.id} is not an account of this archive` });
      else if (r.role !== "reviewer") findings.push({ rule: "reviewer", field: "reviewers", message: `${r.name} is not a reviewer (signed in as ${r.role})` });
      else if (context.authors.includes(r.id)) {
        findings.push({ rule: "reviewer", field: "reviewers", message: `${r.name} wrote a revision of ${context.id}, so cannot approve it: ask someone else` });
      }
    }
    if (new Set(reviewers.map((r) => r.id)).size !== reviewers.length)
      findings.push({ rule: "reviewer", field: "reviewers", message: "a reviewer is named twice" });
    if (text) findings.push(...(await policy("text", text)));
    return findings;
  }

  if (actor.role !== "author" && actor.role !== "reviewer") findings.push(role("only authors and reviewers take part in a review"));

  if (write.kind === "thread") {
    const { section, quote, revision, text } = write.after;
    if (!write.at) {
      findings.push({
        rule: "revision",
        field: "revision",
        message: `${short(revision)} is not a saved revision of ${context.id}; start the thread on the revision you are reading (${short(context.currentRevision)})`,
      });
    } else if (quote && !write.at.sections[section].includes(quote)) {
      findings.push({ rule: "anchor", field: "quote", message: `the quoted passage is not in the ${HEADING[section]} section at revision ${short(revision)}` });
    }
    findings.push(...(await policy("text", text)));
    return findings;
  }

  const thread = context.threads.find((t) => t.id === write.after.thread);
  if (!thread) return [...findings, { rule: "thread", field: "thread", message: `${context.id} has no review thread ${write.after.thread}` }];

  if (write.kind === "reply") return [...findings, ...(await policy("text", write.after.text))];

  if (write.kind === "comment-edit") {
    const { comment: commentId, text } = write.after;
    const comment = thread.comments.find((c) => c.id === commentId);
    if (!comment) return [...findings, { rule: "comment", field: "comment", message: `thread ${thread.id} has no comment ${commentId}` }];
    if (comment.by.id !== actor.id) findings.push({ rule: "comment", field: "by", message: `only ${comment.by.name} edits this comment; reply instead` });
    else if (comment.text === text) findings.push({ rule: "comment", field: "text", message: "the comment already reads exactly this" });
    findings.push(...(await policy("text", text)));
    return findings;
  }

  const resolving = write.kind === "thread-resolve";
  if (thread.resolved === resolving) {
    findings.push({ rule: "thread", field: "resolved", message: `the thread on ${HEADING[thread.section]} is already ${resolving ? "resolved" : "open"}` });
  }
  return findings;
}

/** The archive policy on a comment's text; the line and column are within that text. */
async function policy(field: string, text: string): Promise<WriteFinding[]> {
  return (await scanText(field, text)).map((f) => ({
    rule: "archive-policy",
    field,
    line: f.line,
    column: f.column,
    policy: f.rule,
    message: f.message,
    excerpt: f.excerpt,
  }));
}

/** A review write as its caller asks for it: the acceptance function adds who asks and the review it lands on. */
export type ReviewWriteRequest = ReviewWrite extends infer W ? (W extends ReviewWrite ? Omit<W, "actor" | "context"> : never) : never;
