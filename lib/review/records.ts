import { z } from "zod";
import { SECTIONS, type SectionKey } from "@/lib/notes/schema";

/**
 * What a review is made of, as stored in the content repository on `refs/reviews/<note id>` (one
 * ref per note, never merged into main, so nothing public ever reads it). In the spirit of
 * Gerrit's NoteDb, every action is one commit whose author is the actor, and every record is an
 * immutable JSON file; a reply, an edit, a resolution or a verdict is a new file that points at
 * earlier ones by id, so the history of what anyone said is never rewritten.
 *
 *   threads/<thread id>/<stamp>-<record id>.json   thread (opening comment), reply, edit, resolve, reopen
 *   verdicts/<stamp>-<record id>.json              approve / request-changes on one revision; a withdrawal of one
 *   requests/<stamp>-<record id>.json              an author asks for a review of one revision (named reviewers, or anyone)
 *   records.log                                    every record path above, one a line, in commit order
 *
 * The log is how a reader lists the records without walking trees, and it fixes their order; two
 * writers racing both append to it, and the loser of the compare-and-swap re-reads the new head
 * and appends again (its record file is a different one), so nothing is lost. `<stamp>` is the
 * UTC time (20250102T030405123Z) so a plain `ls` shows a thread in order.
 */

export const LOG_FILE = "records.log";
export const RECORD_ID = /^[0-9a-f]{12}$/;
const OID = /^[0-9a-f]{40}$/;

const SECTION_KEYS = SECTIONS.map((s) => s.key) as [SectionKey, ...SectionKey[]];

const who = z.object({ id: z.string().min(1), name: z.string().min(1) });
const base = {
  v: z.literal(1),
  id: z.string().regex(RECORD_ID),
  at: z.string().min(1),
  by: who,
};
const threadId = z.string().regex(RECORD_ID);
const revision = z.string().regex(OID);

export const reviewRecordSchema = z.discriminatedUnion("kind", [
  z.object({
    ...base,
    kind: z.literal("thread"),
    section: z.enum(SECTION_KEYS),
    quote: z.string().optional(),
    revision,
    /** The section's text at `revision`: what the thread is about, even after the draft moves on (or its commits are gone). */
    anchor: z.string(),
    text: z.string(),
  }),
  z.object({ ...base, kind: z.literal("reply"), thread: threadId, revision: revision.optional(), text: z.string() }),
  z.object({ ...base, kind: z.literal("edit"), thread: threadId, comment: z.string().regex(RECORD_ID), text: z.string() }),
  z.object({ ...base, kind: z.literal("resolve"), thread: threadId }),
  z.object({ ...base, kind: z.literal("reopen"), thread: threadId }),
  z.object({
    ...base,
    kind: z.literal("verdict"),
    revision,
    verdict: z.enum(["approve", "request-changes"]),
    summary: z.string().optional(),
  }),
  // A reviewer takes back their own request for changes (the verdict record stays, marked withdrawn).
  z.object({ ...base, kind: z.literal("withdraw"), verdict: z.string().regex(RECORD_ID) }),
  z.object({
    ...base,
    kind: z.literal("request"),
    revision,
    /** The reviewers asked; empty: any reviewer (a published hypothesis put up for verification, a draft put up for publishing). */
    reviewers: z.array(who),
    /** What the author wants looked at: "verify", "publish" or "changes". */
    purpose: z.enum(["verify", "publish", "changes"]),
    text: z.string().optional(),
  }),
]);

export type ReviewRecord = z.infer<typeof reviewRecordSchema>;
export type RecordOf<K extends ReviewRecord["kind"]> = Extract<ReviewRecord, { kind: K }>;
export type Who = z.infer<typeof who>;

/** 2025-01-02T03:04:05.123Z → 20250102T030405123Z: sorts as text, and is a valid file name everywhere. */
export const stampOf = (at: string) => at.replace(/[-:.]/g, "");

export function recordPath(record: ReviewRecord): string {
  const file = `${stampOf(record.at)}-${record.id}.json`;
  if (record.kind === "verdict" || record.kind === "withdraw") return `verdicts/${file}`;
  if (record.kind === "request") return `requests/${file}`;
  const thread = record.kind === "thread" ? record.id : record.thread;
  return `threads/${thread}/${file}`;
}
