import type { PhaseView, PhasesView } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";
import { segment, slug } from "@/lib/web/urls";

/**
 * What a tag page and a phase page show, decided once for the HTML page and its Markdown twin,
 * so both list the same notes under the same name.
 */

export type TagPage = { name: string; notes: Note[] };

/** The notes with a tag, named as its notes spell it (the most common spelling when they differ in case); null for no such tag. */
export function tagPage(view: Pick<PublishedView, "notes">, rawSegment: string): TagPage | null {
  const wanted = slug(segment(rawSegment));
  const notes = view.notes.filter((n) => n.tags.some((t) => slug(t) === wanted));
  const names = notes.flatMap((n) => n.tags.filter((t) => slug(t) === wanted));
  const name = mostCommon(names);
  return name ? { name, notes } : null;
}

export type PhasePage = { phase: PhaseView; orphan: boolean };

/**
 * A phase with its record, or, for a phase that notes name but that has no file yet (a commit made
 * outside the app; content:check flags it), its notes with no record claimed; null for neither.
 */
export function phasePage(view: Pick<PublishedView, "notes">, phases: PhasesView["phases"], rawSegment: string): PhasePage | null {
  const wanted = slug(segment(rawSegment));
  const phase = phases.find((p) => p.phase.slug === wanted);
  if (phase) return { phase, orphan: false };
  const notes = view.notes.filter((n) => slug(n.phase) === wanted);
  const name = notes[0]?.phase;
  if (!name) return null;
  return { phase: { file: "", notes, delta: [], phase: { name, slug: wanted, status: "open", description: "", reopenings: [] } }, orphan: true };
}

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}
