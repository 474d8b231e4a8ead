import type { Note, SectionKey } from "@/lib/notes/schema";
import { openChangeRequests, type ReviewState } from "@/lib/rules/status-machine";
import type { RecordOf, ReviewRecord, Who } from "./records";

/**
 * A note's review as people see it, derived from its records alone (pure: no I/O). Records come in
 * commit order; one that does not make sense (a reply to a thread that does not exist, an edit by
 * someone other than the comment's writer) is skipped and listed in `problems`, since plain git
 * can write anything to the ref.
 */

export type CommentVersion = { text: string; at: string };
export type ReviewComment = {
  id: string;
  by: Who;
  at: string;
  text: string;
  /** Earlier texts, oldest first: an edit never erases what was said. */
  history: CommentVersion[];
  /** When the current text was written, if it is an edit. */
  editedAt?: string;
  /** The revision the writer was looking at, when known. */
  revision?: string;
};

export type ReviewThread = {
  id: string;
  section: SectionKey;
  quote?: string;
  /** The revision the thread was started on, and the section's text then. */
  revision: string;
  anchor: string;
  by: Who;
  at: string;
  comments: ReviewComment[];
  resolved: boolean;
  /** Who resolved or reopened it, and when, oldest first. */
  resolutions: { action: "resolve" | "reopen"; by: Who; at: string }[];
  /** The anchored section (or quoted passage) is no longer what it was at `revision`. */
  outdated: boolean;
};

export type ReviewVerdict = {
  id: string;
  reviewer: Who;
  revision: string;
  verdict: "approve" | "request-changes";
  summary?: string;
  at: string;
  /** Given on an earlier revision: it says nothing about the current one. */
  stale: boolean;
  /** The same reviewer gave a later verdict on the same revision, which replaces this one. */
  replaced: boolean;
  /** Given by someone who wrote a revision of the note: never counted. */
  selfVerdict: boolean;
  /** A request for changes its reviewer took back, and when. */
  withdrawnAt?: string;
};

/** An author's request for a review of one revision: of named reviewers, or of anyone. */
export type ReviewRequest = {
  id: string;
  by: Who;
  at: string;
  revision: string;
  /** Empty: any reviewer. */
  reviewers: Who[];
  purpose: "verify" | "publish" | "changes";
  text?: string;
};

export type DerivedReview = {
  currentRevision: string;
  threads: ReviewThread[];
  verdicts: ReviewVerdict[];
  /** Review requests, oldest first. */
  requests: ReviewRequest[];
  /** What the status machine checks: each reviewer's latest verdict per revision. */
  state: ReviewState;
  problems: string[];
};

export type DeriveContext = {
  currentRevision: string;
  /** The note at the current revision (null when it is not a valid note: then no thread can be judged outdated). */
  currentNote: Note | null;
  /** Accounts that wrote the note's revisions: their verdicts are marked and never counted. */
  revisionAuthors?: readonly string[];
};

export function deriveReviewState(records: readonly ReviewRecord[], ctx: DeriveContext): DerivedReview {
  const threads = new Map<string, ReviewThread>();
  const verdicts: ReviewVerdict[] = [];
  const requests: ReviewRequest[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  const authors = new Set(ctx.revisionAuthors ?? []);

  for (const r of records) {
    if (seen.has(r.id)) {
      problems.push(`record ${r.id} appears twice; the later copy is ignored`);
      continue;
    }
    seen.add(r.id);
    if (r.kind === "thread") {
      threads.set(r.id, openThread(r));
      continue;
    }
    if (r.kind === "verdict") {
      verdicts.push({
        id: r.id,
        reviewer: r.by,
        revision: r.revision,
        verdict: r.verdict,
        ...(r.summary ? { summary: r.summary } : {}),
        at: r.at,
        stale: r.revision !== ctx.currentRevision,
        replaced: false,
        selfVerdict: authors.has(r.by.id),
      });
      continue;
    }
    if (r.kind === "withdraw") {
      const v = verdicts.find((x) => x.id === r.verdict);
      if (!v) problems.push(`withdrawal ${r.id} points at verdict ${r.verdict}, which does not exist`);
      else if (v.reviewer.id !== r.by.id) problems.push(`withdrawal ${r.id} by ${r.by.id} of a verdict by ${v.reviewer.id} is ignored`);
      else if (v.verdict !== "request-changes") problems.push(`withdrawal ${r.id} points at an approval; only a request for changes is withdrawn`);
      else v.withdrawnAt = r.at;
      continue;
    }
    if (r.kind === "request") {
      requests.push({ id: r.id, by: r.by, at: r.at, revision: r.revision, reviewers: r.reviewers, purpose: r.purpose, ...(r.text ? { text: r.text } : {}) });
      continue;
    }
    const thread = threads.get(r.thread);
    if (!thread) {
      problems.push(`${r.kind} ${r.id} points at thread ${r.thread}, which does not exist`);
      continue;
    }
    if (r.kind === "reply") {
      thread.comments.push({ id: r.id, by: r.by, at: r.at, text: r.text, history: [], ...(r.revision ? { revision: r.revision } : {}) });
    } else if (r.kind === "edit") {
      const comment = thread.comments.find((c) => c.id === r.comment);
      if (!comment) problems.push(`edit ${r.id} points at comment ${r.comment}, which is not in thread ${r.thread}`);
      else if (comment.by.id !== r.by.id) problems.push(`edit ${r.id} by ${r.by.id} of a comment written by ${comment.by.id} is ignored`);
      else {
        comment.history.push({ text: comment.text, at: comment.editedAt ?? comment.at });
        comment.text = r.text;
        comment.editedAt = r.at;
      }
    } else {
      thread.resolved = r.kind === "resolve";
      thread.resolutions.push({ action: r.kind, by: r.by, at: r.at });
    }
  }

  // A reviewer's later verdict on the same revision replaces the earlier one (a change of mind, or changes answered).
  const latest = new Map<string, ReviewVerdict>();
  for (const v of verdicts) {
    const key = `${v.reviewer.id}\0${v.revision}`;
    const before = latest.get(key);
    if (before) before.replaced = true;
    latest.set(key, v);
  }

  const list = [...threads.values()];
  for (const t of list) t.outdated = isOutdated(t, ctx);
  return {
    currentRevision: ctx.currentRevision,
    threads: list,
    verdicts,
    requests,
    state: {
      verdicts: [...latest.values()]
        .sort((a, b) => a.at.localeCompare(b.at))
        .map((v) => ({
          reviewer: v.reviewer.id,
          name: v.reviewer.name,
          revision: v.revision,
          verdict: v.verdict,
          at: v.at,
          ...(v.withdrawnAt ? { withdrawn: true } : {}),
        })),
    },
    problems,
  };
}

function openThread(r: RecordOf<"thread">): ReviewThread {
  return {
    id: r.id,
    section: r.section,
    ...(r.quote ? { quote: r.quote } : {}),
    revision: r.revision,
    anchor: r.anchor,
    by: r.by,
    at: r.at,
    comments: [{ id: r.id, by: r.by, at: r.at, text: r.text, history: [], revision: r.revision }],
    resolved: false,
    resolutions: [],
    outdated: false,
  };
}

/** A quoted passage is outdated once it is gone from the section; a whole-section thread once the section reads differently. */
function isOutdated(t: ReviewThread, ctx: DeriveContext): boolean {
  if (t.revision === ctx.currentRevision || !ctx.currentNote) return false;
  const now = ctx.currentNote.sections[t.section];
  return t.quote ? !now.includes(t.quote) : now !== t.anchor;
}

/** The verdicts that count on `revision`: each reviewer's latest, not by an author. */
export function standingVerdicts(review: DerivedReview, revision = review.currentRevision): ReviewVerdict[] {
  return review.verdicts.filter((v) => v.revision === revision && !v.replaced && !v.selfVerdict);
}

/**
 * "changes-requested" while any reviewer's request for changes stands (on this revision or an
 * earlier one: a new save does not answer it), else "approved" or "awaiting" a verdict on the current revision.
 */
export function verdictState(review: DerivedReview): "approved" | "changes-requested" | "awaiting" {
  const standing = standingVerdicts(review);
  if (openChangeRequests(review.state).length > 0) return "changes-requested";
  if (standing.some((v) => v.verdict === "approve")) return "approved";
  return "awaiting";
}
