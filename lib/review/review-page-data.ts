import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import type { Note } from "@/lib/notes/schema";
import type { PhaseTitles } from "@/lib/phases/schema";
import { diffNotes, type FieldDiff } from "@/lib/diff/sections";
import { MAIN_REF, notePath } from "@/lib/working-copy/layout";

/**
 * What the review page compares the note with. A published note: its published version, so the
 * reviewer sees what readers would see change. A note never published: the revision the reviewer
 * last gave a verdict on, else the revision before the one under review, never "nothing" (which
 * marked every field of a first review as new and so marked nothing useful). A note with a single
 * revision has nothing to compare with, and the page says so once instead of under every section.
 * The reviewer may pick any earlier revision instead.
 */

export type BaseChoice = { value: string; label: string };
export type ReviewComparison = {
  /** The chosen base's value ("published" or a commit id); null when there is nothing earlier. */
  base: string | null;
  choices: BaseChoice[];
  diffs: FieldDiff[];
  /** "the published version", "the version of 3 Dec, 07:38 by ada"; empty with no base. */
  baseLabel: string;
};

/**
 * The parts of the studio's note view the comparison reads (review does not import the studio);
 * `phaseTitles`, main's renamed phases, name a phase by its title in the diff.
 */
export type ReviewedNote = { id: string; revision: string; noteRevision: string; published: boolean; phaseTitles: PhaseTitles };

/** "3 Dec, 07:38" (UTC): how people name a version; the short commit id is only a detail. */
export function versionDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return `${day}, ${time}`;
}

export async function compareForReview(view: ReviewedNote, note: Note, opts: { against?: string; lastReviewed?: string } = {}): Promise<ReviewComparison> {
  const store = await getContentStore();
  const revisions = await store.history(notePath(view.id), view.revision, { limit: 50 });
  const onMain = view.published ? await store.readNote(view.id, MAIN_REF) : null;
  const earlier = revisions.filter((r) => r.commit !== view.noteRevision && r.blob !== null);
  const choices: BaseChoice[] = [
    ...(onMain?.ok ? [{ value: "published", label: "the published version" }] : []),
    ...earlier.map((r) => ({
      value: r.commit,
      label: `the version of ${versionDate(r.date)} by ${r.author.name}${r.commit === opts.lastReviewed ? " (your last verdict)" : ""} · ${r.commit.slice(0, 7)}`,
    })),
  ];
  const fallback = onMain?.ok ? choices[0] : (choices.find((c) => c.value === opts.lastReviewed) ?? choices[0]);
  const chosen = choices.find((c) => c.value === opts.against) ?? fallback;
  if (!chosen) return { base: null, choices, diffs: [], baseLabel: "" };
  let before: Note | null = null;
  if (chosen.value === "published" && onMain?.ok) before = onMain.note;
  else {
    const then = await store.readNote(view.id, chosen.value);
    before = then?.ok ? then.note : null;
  }
  // An earlier revision that does not parse (written with plain git) compares as an empty note.
  return { base: chosen.value, choices, diffs: diffNotes(before, note, view.phaseTitles), baseLabel: chosen.label.replace(/ · [0-9a-f]{7}$/, "") };
}
