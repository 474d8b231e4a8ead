import { getContentStore } from "@/lib/store";
import type { Note } from "@/lib/notes/schema";
import { diffNotes, type FieldDiff } from "@/lib/diff/sections";
import { MAIN_REF, notePath } from "@/lib/working-copy/layout";

/**
 * What the review view compares the note with: the published version by default (or, for a note
 * never published, its first revision's absence), or any earlier revision of it the reviewer picks.
 */

export type BaseChoice = { value: string; label: string };
export type ReviewComparison = { base: string; choices: BaseChoice[]; diffs: FieldDiff[]; baseLabel: string };

/** The parts of the studio's note view the comparison reads (review does not import the studio). */
export type ReviewedNote = { id: string; revision: string; noteRevision: string; published: boolean };

export async function compareForReview(view: ReviewedNote, note: Note, against?: string): Promise<ReviewComparison> {
  const store = await getContentStore();
  const revisions = await store.history(notePath(view.id), view.revision, { limit: 50 });
  const onMain = view.published ? await store.readNote(view.id, MAIN_REF) : null;
  const choices: BaseChoice[] = [
    ...(onMain?.ok ? [{ value: "published", label: "the published version" }] : [{ value: "none", label: "nothing (every field is new)" }]),
    ...revisions
      .filter((r) => r.commit !== view.noteRevision && r.blob !== null)
      .map((r) => ({ value: r.commit, label: `revision ${r.commit.slice(0, 7)} (${r.date.slice(0, 16).replace("T", " ")}, ${r.author.name})` })),
  ];
  const chosen = choices.find((c) => c.value === against) ?? choices[0]!;
  let before: Note | null = null;
  if (chosen.value === "published" && onMain?.ok) before = onMain.note;
  else if (/^[0-9a-f]{40}$/.test(chosen.value)) {
    const then = await store.readNote(view.id, chosen.value);
    before = then?.ok ? then.note : null;
  }
  return { base: chosen.value, choices, diffs: diffNotes(before, note), baseLabel: chosen.label };
}
