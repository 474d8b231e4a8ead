import type { Note } from "@/lib/notes/schema";
import type { Phase } from "@/lib/phases/schema";
import type { CommittedWrite, Who } from "@/lib/webhooks/events";

/**
 * What a range of main's commits the app did not announce (plain git, another host) meant, as the
 * writes the studio would have announced: the diff of the range's two ends, note by note and phase
 * by phase. Pure: lib/events/announce-main.ts reads the two ends and each changed file's last commit.
 *
 * - a published note new to main: `publish` (first time) → `note.published`;
 * - a published note whose status changed (retracted, superseded, promoted…): `status-change` →
 *   `note.status_changed`;
 * - a published note changed otherwise: `publish` of a new version → `note.published`, as the
 *   studio's publish of a new version;
 * - a phase file that is closed now and was not: `phase-close` → `phase.closed`.
 * A note that left main or stopped being published, and a phase opened, edited or reopened, are
 * announced by nothing (the studio announces none of them either).
 */

/** The commit of the range that last changed a file, its author as the actor, and its place in the range (0: oldest). */
export type LastChange = { commit: string; actor: Who; position: number };

export type RangeChange =
  | { kind: "note"; before: Note | null; after: Note; last: LastChange }
  | { kind: "phase"; before: Phase | null; after: Phase; last: LastChange };

/** The writes of a range's changes, oldest commit first (ties by note id or phase slug). */
export function writesOfRange(changes: readonly RangeChange[]): CommittedWrite[] {
  const key = (c: RangeChange) => (c.kind === "note" ? c.after.id : `phase:${c.after.slug}`);
  const ordered = [...changes].sort((a, b) => a.last.position - b.last.position || key(a).localeCompare(key(b)));
  return ordered.flatMap((c): CommittedWrite[] => {
    const { commit, actor } = c.last;
    if (c.kind === "phase") return c.after.status === "closed" && c.before?.status !== "closed" ? [{ kind: "phase-close", actor, commit, phase: c.after }] : [];
    if (c.before && c.before.status !== c.after.status) {
      const reason = c.after.status === "retracted" ? c.after.retraction_reason : undefined;
      return [{ kind: "status-change", actor, commit, before: c.before, after: c.after, published: true, ...(reason ? { reason } : {}) }];
    }
    return [{ kind: "publish", actor, commit, note: c.after, before: c.before }];
  });
}
