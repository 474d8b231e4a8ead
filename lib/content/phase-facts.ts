import type { ContentStore, Snapshot } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import type { Note } from "@/lib/notes/schema";
import { isVerifiedStatus, type PhaseNoteFact } from "@/lib/rules/phase-closeout";

/**
 * The closeout rule's facts (when each note's current run of "verified" began), read from git. Apart
 * from ./phases.ts (the phases' published view), so content:check and the judge of main's commits
 * (./accepted-main.ts), which the published view itself reads, do not import that view.
 */

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

