import { readPhases } from "@/lib/content/phases";
import { ApiError } from "@/lib/api/errors";
import type { Note } from "@/lib/notes/schema";
import { checkNotePhase } from "@/lib/rules/phase-closeout";
import type { ContentStore, Oid } from "@/lib/store/types";

/** The phases a note may name: the phase files on main. */
export async function phaseNames(store: ContentStore, mainHead: Oid): Promise<string[]> {
  return (await readPhases(store, mainHead)).map((p) => p.phase.name);
}

/**
 * A note must name one of the phases (issue: "the schema refuses an unknown phase"). A repository
 * with no phase files at all (an archive from before phases) accepts any phase.
 */
export async function refuseUnknownPhase(store: ContentStore, mainHead: Oid, note: Pick<Note, "id" | "phase">): Promise<void> {
  const names = await phaseNames(store, mainHead);
  if (names.length === 0) return;
  const unmet = checkNotePhase(note, names.map((name) => ({ name })));
  if (unmet.length) throw new ApiError(422, "unknown-phase", `${note.id}: ${unmet.join("; ")}`, { where: unmet.map((message) => ({ field: "phase", message })), unmet });
}
