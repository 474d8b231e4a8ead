import type { Note } from "@/lib/notes/schema";
import type { RevisionReview } from "./accept-write";

/**
 * Approvals checkable from git alone (docs/decisions/approval-trailers.md). A publish that needs a
 * reviewer's approval says so in its commit message, in git's trailer format (as Gerrit writes
 * Reviewed-on / Reviewed-by), so `git interpret-trailers --parse` reads it:
 *
 *   Draft-revision: <the draft commit that was published>
 *   Approved-by: <reviewer account> <verdict record id on refs/reviews/<note id>>
 *
 * The checker reads the records those trailers name and holds them to the rule the app applied.
 * Pure: the caller reads the records and the notes at the revisions they name.
 */

export const DRAFT_REVISION = "Draft-revision";
export const APPROVED_BY = "Approved-by";
export const REASON = "Reason";

export type Approver = { reviewer: string; record: string };
export type ApprovalTrailers = { draftRevision: string | null; approvers: Approver[]; problems: string[] };

/** The trailer block to end a commit message with (one blank line before it). */
export function formatTrailers(t: { draftRevision?: string; approvers?: readonly Approver[]; reason?: string }): string {
  const lines = [
    ...(t.reason ? [`${REASON}: ${t.reason.replace(/\s+/g, " ").trim()}`] : []),
    ...(t.draftRevision ? [`${DRAFT_REVISION}: ${t.draftRevision}`] : []),
    ...(t.approvers ?? []).map((a) => `${APPROVED_BY}: ${a.reviewer} ${a.record}`),
  ];
  return lines.join("\n");
}

/** Append trailers to a message as its last paragraph. */
export const withTrailers = (message: string, trailers: string) => (trailers ? `${message.trimEnd()}\n\n${trailers}` : message);

/** The `Key: value` lines of the message's last paragraph (git's trailer block). */
export function parseTrailers(message: string): { key: string; value: string }[] {
  const paragraphs = message.trim().split(/\n\s*\n/);
  const last = paragraphs.length > 1 ? (paragraphs.at(-1) ?? "") : "";
  const lines = last.split("\n").filter((l) => l.trim() !== "");
  const parsed = lines.map((l) => /^([A-Za-z0-9][A-Za-z0-9-]*):\s*(.*)$/.exec(l));
  if (lines.length === 0 || parsed.some((m) => m === null)) return [];
  return parsed.map((m) => ({ key: m?.[1] ?? "", value: (m?.[2] ?? "").trim() }));
}

export function approvalTrailersOf(message: string): ApprovalTrailers {
  const problems: string[] = [];
  let draftRevision: string | null = null;
  const approvers: Approver[] = [];
  for (const { key, value } of parseTrailers(message)) {
    if (key.toLowerCase() === DRAFT_REVISION.toLowerCase()) {
      if (/^[0-9a-f]{40}$/.test(value)) draftRevision = value;
      else problems.push(`${DRAFT_REVISION}: "${value}" is not a commit id`);
    } else if (key.toLowerCase() === APPROVED_BY.toLowerCase()) {
      const m = /^(\S+)\s+([0-9a-f]{12})$/.exec(value);
      if (m) approvers.push({ reviewer: m[1] ?? "", record: m[2] ?? "" });
      else problems.push(`${APPROVED_BY}: "${value}" is not "<reviewer> <verdict record id>"`);
    }
  }
  return { draftRevision, approvers, problems };
}

/** A verdict as the review module derives it (lib/review/derive.ts), as far as approvals need it. */
export type StandingVerdict = { id: string; reviewer: { id: string }; revision: string; verdict: "approve" | "request-changes"; replaced: boolean };

/**
 * The approvals that count for `revision`, named as trailers name them: a reviewer's latest verdict on
 * exactly that revision is an approval, and the reviewer wrote none of the note up to it (`authors`).
 * The one place this is decided, for the promotion commit and the publish alike.
 */
export function standingApprovals(verdicts: readonly StandingVerdict[], revision: string, authors: readonly string[]): Approver[] {
  return verdicts
    .filter((v) => v.revision === revision && v.verdict === "approve" && !v.replaced && !authors.includes(v.reviewer.id))
    .map((v) => ({ reviewer: v.reviewer.id, record: v.id }));
}

/** The reason a plain-git commit gives (to retract, or to remove a boundary): its `Reason:` line. */
export const reasonOf = (message: string) => /^Reason:\s*(.+)$/im.exec(message)?.[1]?.trim();

/** Two versions of a note that differ at most in status and editorial order (a promotion, a first publication). */
export function sameNoteApartFrom(a: Note, b: Note): boolean {
  return canonical({ ...a, status: null, order: null }) === canonical({ ...b, status: null, order: null });
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .filter(([, x]) => x !== undefined)
            .sort(([x], [y]) => x.localeCompare(y)),
        )
      : v,
  );
}

/** A verdict record as the checker found it on refs/reviews/<id>. */
export type VerdictRecord = { id: string; by: string; revision: string; verdict: "approve" | "request-changes" };

export type TrailerEvidence = {
  id: string;
  /** The note as it landed on main. */
  landed: Note;
  trailers: ApprovalTrailers;
  /** Every verdict record on the note's review ref, by record id. */
  records: ReadonlyMap<string, VerdictRecord>;
  /** The note at a revision a trailer or record names (null: no such commit, or not a valid note there). */
  noteAt: ReadonlyMap<string, Note | null>;
  /** Accounts that wrote the note's revisions up to a revision. */
  authorsAt: ReadonlyMap<string, readonly string[]>;
};

/**
 * The review a landing carries, as the status machine reads it, and what is wrong with its
 * trailers: each named record must exist, be an approval by that reviewer, not by an author of the
 * note, of a revision whose note is what landed (apart from status and order).
 */
export function verifyApprovalTrailers(e: TrailerEvidence): { review: RevisionReview; problems: string[] } {
  const problems = [...e.trailers.problems];
  const verdicts: RevisionReview["verdicts"] = [];
  let revision = e.trailers.draftRevision ?? "";
  let authors: readonly string[] = [];
  if (e.trailers.draftRevision) {
    const draft = e.noteAt.get(e.trailers.draftRevision);
    if (!draft) problems.push(`${DRAFT_REVISION} ${e.trailers.draftRevision.slice(0, 10)} is not a revision of ${e.id} in this repository`);
    else if (!sameNoteApartFrom(draft, e.landed) || draft.status !== e.landed.status) {
      problems.push(`${DRAFT_REVISION} ${e.trailers.draftRevision.slice(0, 10)} holds a different ${e.id} from the one that landed`);
    }
  }
  for (const { reviewer, record: recordId } of e.trailers.approvers) {
    const record = e.records.get(recordId);
    const where = `${APPROVED_BY} ${reviewer} ${recordId}`;
    if (!record) {
      problems.push(`${where}: refs/reviews/${e.id} has no verdict record ${recordId}`);
      continue;
    }
    if (record.by !== reviewer) problems.push(`${where}: record ${recordId} is by ${record.by}, not ${reviewer}`);
    if (record.verdict !== "approve") problems.push(`${where}: record ${recordId} requests changes; it is not an approval`);
    const then = e.noteAt.get(record.revision);
    const recordAuthors = e.authorsAt.get(record.revision) ?? [];
    if (!then) problems.push(`${where}: the approved revision ${record.revision.slice(0, 10)} is not a revision of ${e.id} in this repository`);
    else if (!sameNoteApartFrom(then, e.landed)) problems.push(`${where}: the approved revision ${record.revision.slice(0, 10)} is not the note that landed`);
    if (recordAuthors.includes(record.by)) problems.push(`${where}: ${record.by} wrote a revision of ${e.id}; an approval must come from someone else`);
    if (record.by === reviewer && record.verdict === "approve" && then && sameNoteApartFrom(then, e.landed)) {
      verdicts.push({ reviewer: record.by, revision: record.revision, verdict: "approve" });
      revision = record.revision;
      authors = recordAuthors;
    }
  }
  return { review: { revision, revisionAuthors: authors, verdicts }, problems };
}
