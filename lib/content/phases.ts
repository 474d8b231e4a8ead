import { getContentStore, type ContentStore, type Snapshot } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { parsePhase, PHASES_DIR, type Phase } from "@/lib/phases/schema";
import { deltaOf, isVerifiedStatus, type PhaseNoteFact } from "@/lib/rules/phase-closeout";
import { lastChanges } from "./last-change";
import { getPublishedView, type PublishedView } from "./published";

/**
 * Phases as published on main: each phase file with its published notes and its decision delta so
 * far. Cached by the commit of main, like the published view, and derived from the previous
 * commit's: a note's fact (when it became verified) is read from its history only when its file
 * changed since (see `publishedFacts`).
 */

export type PhaseView = { phase: Phase; file: string; notes: Note[]; delta: string[] };
export type PhasesView = { commit: Oid; phases: PhaseView[] };

// From this many notes, one walk back through the commits is cheaper than each note's own history.
const WALK_FROM = 32;

/** When each note first became verified on the line of history ending at `commit` (the closeout rule's facts). */
export function phaseFacts(store: ContentStore, commit: Oid, notes: readonly Note[]): Promise<PhaseNoteFact[]> {
  return notes.length >= WALK_FROM ? walkFacts(store, commit, notes) : historyFacts(store, commit, notes);
}

/** The facts read note by note: each verified note's file history, newest first, read at each revision. */
export async function historyFacts(store: ContentStore, commit: Oid, notes: readonly Note[]): Promise<PhaseNoteFact[]> {
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

// Commits read per step of the walk: the log is read a page at a time, and the walk usually ends early.
const LOG_PAGE = 256;

type Stored = Snapshot["notes"][number];

/**
 * The same facts in one walk back along first parents: at each commit, the note files that differ
 * from its parent's are exactly the revisions their own histories would list, and a verified note
 * among them is read as of that commit. A note's walk ends at the first such revision where it is
 * not verified (or gone), or where its file was created; the whole walk ends when every note's has.
 * Reading each history instead looked the file up in every commit's tree once per note: notes ×
 * commits lookups, minutes at 10,000 notes and 200 commits.
 */
export async function walkFacts(store: ContentStore, commit: Oid, notes: readonly Note[]): Promise<PhaseNoteFact[]> {
  const verifiedAt = new Map<string, string>();
  const open = new Set(notes.filter((n) => isVerifiedStatus(n.status)).map((n) => n.id));
  // The note files at the commit being looked at, moved down one commit per step by what differs.
  let files = open.size ? byId(await store.snapshot(commit)) : new Map<string, Stored>();
  let from: Oid | undefined = open.size ? commit : undefined;
  while (from) {
    const page = await store.log(from, { limit: LOG_PAGE });
    from = undefined;
    for (const revision of page) {
      const below = revision.parents[0];
      const parent = below ? await store.snapshot(below) : null;
      const differ = parent ? differences(revision.commit, files, parent) : [...files.keys()].map((id) => [id, null] as const);
      for (const [id, then] of differ) {
        if (!open.has(id)) continue;
        const now = files.get(id);
        // A revision of this note's file: where it is not verified, the run began after it.
        if (!(now?.ok && isVerifiedStatus(now.note.status))) open.delete(id);
        else {
          verifiedAt.set(id, revision.date);
          if (!then) open.delete(id); // created here: no older revision
        }
      }
      if (!open.size || !parent) break;
      for (const [id, then] of differ) {
        if (then) files.set(id, then);
        else files.delete(id);
      }
      if (revision === page[page.length - 1]) from = below;
    }
  }
  return notes.map((note) => ({ id: note.id, phase: note.phase, status: note.status, verifiedAt: verifiedAt.get(note.id) ?? null }));
}

const byId = (snapshot: Snapshot) => new Map(snapshot.notes.map((s) => [s.id, s] as const));

/**
 * The note files that differ between a commit (its files) and its parent's snapshot, each with the
 * parent's version (null: not in the parent). The parent's snapshot was usually just built from the
 * commit's own (the walk goes down one commit at a time), and then says so itself; else compare all.
 */
function differences(commit: Oid, files: ReadonlyMap<string, Stored>, parent: Snapshot): (readonly [string, Stored | null])[] {
  if (parent.delta?.from === commit) return [...parent.delta.changed.map((s) => [s.id, s] as const), ...parent.delta.removed.map((s) => [s.id, null] as const)];
  const then = byId(parent);
  const out: (readonly [string, Stored | null])[] = [];
  for (const [id, s] of then) if (files.get(id)?.blob !== s.blob) out.push([id, s]);
  for (const id of files.keys()) if (!then.has(id)) out.push([id, null]);
  return out;
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

type State = {
  last: { commit: Oid; view: Promise<PhasesView> } | null;
  /** Each published note's fact, by note id and the commit that last changed its file. */
  facts: Map<string, PhaseNoteFact>;
};
// On globalThis: the phase pages, llms.txt and the agents' routes are other bundle layers, and one
// build per commit serves them all.
const KEY = Symbol.for("field-notes.published-phases");
const holder = globalThis as typeof globalThis & { [KEY]?: State };
const state = (): State => (holder[KEY] ??= { last: null, facts: new Map() });

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
