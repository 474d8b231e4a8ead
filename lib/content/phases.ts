import { getContentStore, type ContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { parsePhase, phaseTitlesOf, PHASES_DIR, type Phase, type PhaseTitles } from "@/lib/phases/schema";
import { deltaOf, type PhaseNoteFact } from "@/lib/rules/phase-closeout";
import { lastChanges } from "./last-change";
import { getPublishedView, type PublishedView } from "./published";
import { phaseFacts } from "./phase-facts";
import { readSide } from "@/lib/read-model/read-side";

/**
 * Phases as published on main: each phase file with its published notes and its decision delta so
 * far. Cached by the commit of main, like the published view, and derived from the previous
 * commit's: a note's fact (when it became verified) is read from its history only when its file
 * changed since (see `publishedFacts`).
 */

export type PhaseView = { phase: Phase; file: string; notes: Note[]; delta: string[] };
export type PhasesView = { commit: Oid; phases: PhaseView[] };

export { historyFacts, phaseFacts, walkFacts } from "./phase-facts";

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

/**
 * The titles of the phases renamed at a commit (name → title), for every place a note's phase is
 * shown: only the phase files are read, never a history, and the last commit's map is kept (in the
 * read side's handle), so the pages of one commit read them once.
 */
export async function phaseTitlesAt(commit: Oid): Promise<PhaseTitles> {
  const side = readSide();
  const last = side.phaseTitles;
  if (last?.commit === commit) return last.titles;
  const read = getContentStore().then(async (store) => phaseTitlesOf((await readPhases(store, commit)).map((p) => p.phase)));
  side.phaseTitles = { commit, titles: read };
  read.catch(() => {
    if (readSide().phaseTitles?.titles === read) delete readSide().phaseTitles;
  });
  return read;
}

export type PhasesState = {
  last: { commit: Oid; view: Promise<PhasesView> } | null;
  /** Each published note's fact, by note id and the commit that last changed its file. */
  facts: Map<string, PhaseNoteFact>;
};
// In the read side's state: the phase pages, llms.txt and the agents' routes are other bundle
// layers, and one build per commit serves them all.
const state = (): PhasesState => (readSide().phases ??= { last: null, facts: new Map() });

/** Phases at the published view's own commit (pass the view a caller already holds), so notes and phase files agree. */
export async function getPublishedPhases(view?: PublishedView): Promise<PhasesView> {
  const published = view ?? (await getPublishedView());
  const s = state();
  if (s.last?.commit === published.commit) return s.last.view;
  const built = build(await getContentStore(), published);
  s.last = { commit: published.commit, view: built };
  built.catch(() => {
    if (s.last?.view === built) s.last = null;
  });
  return built;
}

export async function getPublishedPhase(slug: string): Promise<PhaseView | null> {
  return (await getPublishedPhases()).phases.find((p) => p.phase.slug === slug) ?? null;
}

/**
 * The published notes' facts at the view's commit. A note's fact is a function of its file's
 * history, and that history is the same from every commit up to the next one that touches the file:
 * so a fact is kept by note id and the commit that last changed the note (lib/content/last-change),
 * and only the notes changed since the previous build read their history. Reading every verified
 * note's whole history on each commit cost seconds at 10,000 notes, and grew with the history.
 */
async function publishedFacts(store: ContentStore, view: PublishedView): Promise<PhaseNoteFact[]> {
  const changes = await lastChanges(view);
  const keyOf = (note: Note) => `${note.id}\0${changes.get(note.id)?.commit ?? view.commit}`;
  const s = state();
  const known = s.facts;
  const missing = view.notes.filter((note) => !known.has(keyOf(note)));
  const read = await phaseFacts(store, view.commit, missing);
  const facts = new Map<string, PhaseNoteFact>();
  missing.forEach((note, i) => facts.set(keyOf(note), read[i]!));
  for (const note of view.notes) {
    const key = keyOf(note);
    if (!facts.has(key)) facts.set(key, known.get(key)!);
  }
  // Only the notes of the newest build are kept: the map never outgrows the archive.
  s.facts = facts;
  return view.notes.map((note) => facts.get(keyOf(note))!);
}

async function build(store: ContentStore, view: PublishedView): Promise<PhasesView> {
  const { commit, notes } = view;
  const [files, facts] = await Promise.all([readPhases(store, commit), publishedFacts(store, view)]);
  // Phases in the order their newest note appears in "All decision records"; phases without notes last.
  const rank = new Map<string, number>();
  notes.forEach((n, i) => rank.set(n.phase, Math.min(rank.get(n.phase) ?? i, i)));
  const phases = files
    .map(({ file, phase }) => ({ file, phase, notes: notes.filter((n) => n.phase === phase.name), delta: deltaOf(phase, facts) }))
    .sort((a, b) => (rank.get(a.phase.name) ?? Infinity) - (rank.get(b.phase.name) ?? Infinity) || a.phase.name.localeCompare(b.phase.name));
  return { commit, phases };
}
