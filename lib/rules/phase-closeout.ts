import type { Note, Status } from "@/lib/notes/schema";
import type { Closeout, Phase } from "@/lib/phases/schema";
import type { Actor } from "./status-machine";

/**
 * The closeout contract (AFN-015): a verified phase closes with a decision delta — at least one
 * note of the phase that became verified while the phase was open — or with an explicit, worded
 * "no new decision delta" record. Pure: the caller supplies when each note became verified.
 */

const VERIFIED: readonly Status[] = ["verified-checkpoint", "verified-structural"];
export const isVerifiedStatus = (status: Status) => VERIFIED.includes(status);

/** One note as the rule sees it: `verifiedAt` is when it first became verified on main (ISO), or null. */
export type PhaseNoteFact = { id: string; phase: string; status: Status; verifiedAt: string | null };

/** The notes of this phase that became verified while it was open: its decision delta. */
export function deltaOf(phase: Phase, notes: readonly PhaseNoteFact[]): string[] {
  return notes
    .filter((n) => n.phase === phase.name && isVerifiedStatus(n.status) && n.verifiedAt !== null)
    .filter((n) => !phase.opened || (n.verifiedAt ?? "").slice(0, 10) >= phase.opened)
    .map((n) => n.id)
    .sort();
}

export type CloseRequest = {
  phase: Phase;
  notes: readonly PhaseNoteFact[];
  actor: Actor;
  /** Today, as an ISO date: the closing date. */
  today: string;
  /** The "no new decision delta" record's words, when the phase closes without a delta. */
  noDeltaWhy?: string;
};

/**
 * A phase file changed between two commits (plain git or the app): the same contract, read from
 * the files. A close must carry a closeout record that holds; a reopening must add a reason.
 */
export function checkPhaseChange(before: Phase | null, after: Phase, notes: readonly PhaseNoteFact[]): string[] {
  const problems: string[] = [];
  const wasClosed = before?.status === "closed";
  if (after.status === "closed" && !wasClosed) {
    const record = after.closeout;
    if (!record) problems.push(`phase ${after.name} is closed without a closeout record`);
    else if (record.kind === "delta") {
      const delta = new Set(deltaOf(after, notes));
      const missing = record.notes.filter((id) => !delta.has(id));
      if (missing.length) {
        problems.push(
          `phase ${after.name} closes with ${missing.join(", ")} as its delta, but ${missing.length === 1 ? "that note did" : "those notes did"} not become verified in this phase while it was open`,
        );
      }
    }
  }
  if (after.status === "open" && wasClosed && after.reopenings.length <= (before?.reopenings.length ?? 0)) {
    problems.push(`phase ${after.name} is reopened without a reason (add an entry to reopenings)`);
  }
  if (wasClosed && after.status === "closed" && JSON.stringify(before?.closeout) !== JSON.stringify(after.closeout)) {
    problems.push(`phase ${after.name}'s closeout record changed after closing; reopen the phase instead`);
  }
  return problems;
}

/** The schema's cross-file rule: a note's phase must be one of the phases. */
export function checkNotePhase(note: Pick<Note, "phase">, phases: readonly Pick<Phase, "name">[]): string[] {
  if (phases.some((p) => p.name === note.phase)) return [];
  const known = phases.map((p) => p.name).join(", ");
  return [`unknown phase "${note.phase}"; the phases are: ${known}`];
}

/**
 * The phase a close asks for, for the acceptance function to judge: with a worded no-delta record
 * when one is given, else with the decision delta, else closed with no record (which it refuses).
 */
export function proposeClose({ phase, notes, actor, today, noDeltaWhy }: CloseRequest): Phase {
  const why = noDeltaWhy?.trim() ?? "";
  const delta = deltaOf(phase, notes);
  const closeout: Closeout | undefined = why
    ? { kind: "no-delta", by: actor.id, at: today, why }
    : delta.length > 0
      ? { kind: "delta", notes: delta, by: actor.id, at: today }
      : undefined;
  return { ...phase, status: "closed", closed: today, ...(closeout ? { closeout } : { closeout: undefined }) };
}

/** The phase a reopening asks for: open again, with the reason kept in its reopenings. */
export function proposeReopen(phase: Phase, actor: Actor, today: string, reason: string): Phase {
  return { ...phase, status: "open", closed: undefined, closeout: undefined, reopenings: [...phase.reopenings, { by: actor.id, at: today, reason }] };
}
