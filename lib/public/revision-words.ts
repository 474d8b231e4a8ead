import { comparableFields, type FieldValue } from "@/lib/diff/fields";
import { STATUS_LABEL, type Note } from "@/lib/notes/schema";
import { isVerifiedStatus } from "@/lib/rules/phase-closeout";
import { substanceChanges } from "@/lib/rules/verified-change";

/**
 * What a published revision did, in a reader's words ("Promoted to verified checkpoint", "Decision
 * and Evidence changed"), from the note before and after it: never from the commit's message, which
 * is git's (subjects, `Draft-revision:` and `Approved-by:` trailers) and may say anything. Pure: the
 * history page, its Markdown twin and the note page's verification line all read it.
 */

export type ChangedField = { field: string; label: string };

/**
 * The fields that differ from `before` to `after`, in page order, named as the diff names them
 * (lib/diff/fields.ts); the same fields `diffNotes` draws a diff for, without the word diff.
 */
export function changedFields(before: Note | null, after: Note): ChangedField[] {
  const old = new Map(before ? comparableFields(before).map((f) => [f.field, f]) : []);
  return comparableFields(after)
    .filter((f) => !sameValue(old.get(f.field), f))
    .map(({ field, label }) => ({ field, label }));
}

/** What one revision did: its status change in words, then the fields it changed. */
export function revisionWords(before: Note | null, after: Note): string {
  if (!before) return `First published as ${STATUS_LABEL[after.status]}`;
  const status = statusWords(before, after);
  // The fields a status change explains are not listed again beside it.
  const explained = new Set([
    "status",
    ...(after.status === "retracted" ? ["retractionReason"] : []),
    ...(after.status === "superseded" ? ["supersededBy"] : []),
  ]);
  const fields = changedFields(before, after).filter((f) => !status || !explained.has(f.field));
  const changed = fields.length ? `${listOf(fields.map((f) => f.label))} changed` : null;
  if (status && changed) return `${status}; ${changed}`;
  return status ?? changed ?? "Reformatted; no field changed";
}

function statusWords(before: Note, after: Note): string | null {
  if (before.status === after.status) return null;
  const label = STATUS_LABEL[after.status];
  if (after.status === "retracted") return after.retraction_reason ? `Retracted: ${after.retraction_reason}` : "Retracted";
  if (after.status === "superseded") return after.superseded_by ? `Superseded by ${after.superseded_by}` : "Superseded";
  if (isVerifiedStatus(after.status)) return isVerifiedStatus(before.status) ? `Reclassified as ${label}` : `Promoted to ${label}`;
  return `Status changed from ${STATUS_LABEL[before.status]} to ${label}`;
}

/** "Decision", "Decision and Evidence", "Title, Summary and Decision", "Title, Summary, Decision and 3 other fields". */
export function listOf(labels: readonly string[]): string {
  if (labels.length <= 1) return labels[0] ?? "";
  if (labels.length <= 4) return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
  return `${labels.slice(0, 3).join(", ")} and ${labels.length - 3} other fields`;
}

/**
 * For a note whose current revision is verified: the revision its claim last changed in, as an
 * index into `revisions` (newest first, as getPublishedHistory answers), and what happened there.
 * Walking back from the newest, the first revision that changed the note's substance ("Decision
 * changed", also when it was the promotion too) or became verified without such a change (first
 * published as verified or promoted: "Verified"; between the verified statuses: "Reclassified").
 * Substance is what the rule that asks for an approval calls it (lib/rules/verified-change.ts), so
 * the revision named is the one that needed one; editorial changes (tags, related notes, core,
 * order) are passed over. Null when the newest revision is not verified.
 */
export function lastClaimChange(revisions: readonly { note: Note }[]): { at: number; words: string } | null {
  if (!revisions[0] || !isVerifiedStatus(revisions[0].note.status)) return null;
  for (let at = 0; at < revisions.length; at++) {
    const note = revisions[at]!.note;
    const before = revisions[at + 1]?.note ?? null;
    const substance = before ? substanceChanges(before, note) : [];
    // The claim changed here: say which fields, even when the same revision was also its promotion.
    if (substance.length) return { at, words: `${listOf(substance.map((f) => f.label))} changed` };
    if (!before || !isVerifiedStatus(before.status)) return { at, words: "Verified" };
    if (before.status !== note.status) return { at, words: "Reclassified" };
  }
  return null; // not reached: the oldest revision has no revision before it
}

/** "approved by Ada Lovelace", "approved by Ada Lovelace and Rita", or, with nobody named, that no approval is recorded. */
export function approvalWords(names: readonly string[]): string {
  return names.length ? `approved by ${listOfPeople(names)}` : "no approval recorded";
}

const listOfPeople = (names: readonly string[]) => (names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

function sameValue(before: FieldValue | undefined, after: FieldValue): boolean {
  if (after.kind === "list") {
    const was = before?.kind === "list" ? before.value : [];
    return was.length === after.value.length && was.every((x, i) => x === after.value[i]);
  }
  return (before?.kind === "text" ? before.value : "") === after.value;
}
