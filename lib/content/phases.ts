import { getContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { parsePhase, PHASES_DIR, type Phase } from "@/lib/phases/schema";
import { deltaOf, isVerifiedStatus, type PhaseNoteFact } from "@/lib/rules/phase-closeout";
import { getPublishedView, type PublishedView } from "./published";

/**
 * Phases as published on main: each phase file with its published notes and its decision delta so
 * far. Cached by the commit of main, like the published view.
 */

export type PhaseView = { phase: Phase; file: string; notes: Note[]; delta: string[] };
export type PhasesView = { commit: Oid; phases: PhaseView[] };

/** When each note first became verified on the line of history ending at `commit` (the closeout rule's facts). */
export async function phaseFacts(store: ContentStore, commit: Oid, notes: readonly Note[]): Promise<PhaseNoteFact[]> {
  return Promise.all(
    notes.map(async (note) => {
      let verifiedAt: string | null = null;
      if (isVerifiedStatus(note.status)) {
        for (const revision of await store.history(`notes/${note.id}.md`, commit)) {
          const at = await store.readNote(note.id, revision.commit);
          if (!(at?.ok && isVerifiedStatus(at.note.status))) break;
          verifiedAt = revision.date; // newest first: the last one kept is when this run of "verified" began
        }
      }
      return { id: note.id, phase: note.phase, status: note.status, verifiedAt };
    }),
  );
}

/** Every valid phase file at a revision; invalid ones are left out (content:check reports them). */
export async function readPhases(store: ContentStore, revision: string): Promise<{ file: string; phase: Phase }[]> {
  const names = (await store.listFiles(revision, PHASES_DIR)).filter((n) => n.endsWith(".yaml"));
  const read = await Promise.all(
    names.map(async (name) => {
      const file = `${PHASES_DIR}/${name}`;
      const parsed = parsePhase((await store.readFile(revision, file)) ?? "");
      return parsed.ok ? [{ file, phase: parsed.phase }] : [];
    }),
  );
  return read.flat();
}

let last: { commit: Oid; view: Promise<PhasesView> } | null = null;

/** Phases at the published view's own commit (pass the view a caller already holds), so notes and phase files agree. */
export async function getPublishedPhases(view?: PublishedView): Promise<PhasesView> {
  const published = view ?? (await getPublishedView());
  if (last?.commit === published.commit) return last.view;
  const built = build(await getContentStore(), published.commit, published.notes);
  last = { commit: published.commit, view: built };
  built.catch(() => {
    if (last?.view === built) last = null;
  });
  return built;
}

export async function getPublishedPhase(slug: string): Promise<PhaseView | null> {
  return (await getPublishedPhases()).phases.find((p) => p.phase.slug === slug) ?? null;
}

async function build(store: ContentStore, commit: Oid, notes: readonly Note[]): Promise<PhasesView> {
  const [files, facts] = await Promise.all([readPhases(store, commit), phaseFacts(store, commit, notes)]);
  // Phases in the order their newest note appears in "All decision records"; phases without notes last.
  const rank = new Map<string, number>();
  notes.forEach((n, i) => rank.set(n.phase, Math.min(rank.get(n.phase) ?? i, i)));
  const phases = files
    .map(({ file, phase }) => ({ file, phase, notes: notes.filter((n) => n.phase === phase.name), delta: deltaOf(phase, facts) }))
    .sort((a, b) => (rank.get(a.phase.name) ?? Infinity) - (rank.get(b.phase.name) ?? Infinity) || a.phase.name.localeCompare(b.phase.name));
  return { commit, phases };
}
