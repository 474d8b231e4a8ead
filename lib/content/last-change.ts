import { getContentStore, type ContentStore, type Snapshot } from "@/lib/working-copy/content-store";
import type { PublishedView } from "@/lib/content/published";
import { publishedNotes } from "@/lib/content/published-notes";
import type { Revision } from "@/lib/store/types";
import { readSide } from "@/lib/read-model/read-side";
import { asServed, refusedCommits } from "./accepted-main";

/**
 * When each published note last changed, and who changed it: the newest commit on main that touched
 * its file, as of the view's commit (the note is published there, so that commit is a published
 * revision; or, for a commit the rules refused, the commit that first served what it did). Kept per
 * commit, one copy per process (lib/read-model/read-side.ts). When main moved by one commit, the
 * new dates come from the previous ones and the notes that commit changed (a note object is one
 * blob, so a different object is a changed file); otherwise every note's history is read, which the
 * store remembers per file, so it walks only commits it has not seen.
 */

type Changes = ReadonlyMap<string, Revision>;
export type LastChangesState = { last: { commit: string; changes: Promise<Changes> } | null; done: { view: PublishedView; changes: Changes } | null };
const state = (): LastChangesState => (readSide().dates ??= { last: null, done: null });

export function lastChanges(view: PublishedView): Promise<Changes> {
  const s = state();
  if (s.last?.commit === view.commit) return s.last.changes;
  const changes = load(view, s.done);
  s.last = { commit: view.commit, changes };
  changes.then(
    (c) => {
      s.done = { view, changes: c };
    },
    // A failed read is retried on the next request, not remembered for the commit.
    () => {
      if (s.last?.changes === changes) s.last = null;
    },
  );
  return changes;
}

/**
 * Dates a previous run knew for `view`'s commit (the persisted read model, lib/read-model): the
 * next view's dates then come from these and the commits since, not from every note's history.
 */
export function seedChanges(view: PublishedView, changes: Changes): void {
  state().done ??= { view, changes };
}

// Beyond this many commits since the known dates, reading every note's history is as cheap.
const MAX_STEPS = 64;

/**
 * The changes as readers saw them: a note last changed by a commit the rules refused reached
 * readers with the first commit served after it (./accepted-main.ts), which is the revision named.
 */
async function load(view: PublishedView, base: LastChangesState["done"]): Promise<Changes> {
  const store = await getContentStore();
  const refused = refusedCommits(store);
  const changes = await loadChanges(store, view, base);
  if (refused.size === 0) return changes;
  return new Map([...changes].map(([id, revision]) => [id, asServed(refused, revision)]));
}

async function loadChanges(store: ContentStore, view: PublishedView, base: LastChangesState["done"]): Promise<Changes> {
  if (base?.view.commit === view.commit) return base.changes;
  if (base) {
    const since = await store.log(view.commit, { until: base.view.commit, limit: MAX_STEPS + 1 });
    const oldest = since[since.length - 1];
    // One commit since (the usual case), or several (a push, or commits made while the server was
    // down): step through them oldest first, each one's notes from its snapshot (which parses only
    // what that commit changed).
    if (oldest && since.length <= MAX_STEPS && oldest.parents[0] === base.view.commit) {
      let before: Pick<PublishedView, "byId"> = base.view;
      let changes = base.changes;
      for (const revision of since.reverse()) {
        const after = revision.commit === view.commit ? view : { byId: publishedNotes(await store.snapshot(revision.commit)) };
        changes = nextChanges(before, changes, after, revision);
        before = after;
      }
      return changes;
    }
  }
  return walkChanges(store, view);
}

// Commits walked back from the view's commit before the notes still undated read their own history.
const MAX_WALK = 256;

/**
 * Every published note's last change in one walk back along first parents: each commit's notes
 * (blob ids) are compared with its parent's, and a note takes the newest commit where its blob
 * differs. The walk ends when every note has its date, which for most archives is a few commits
 * back (the commit that added the notes untouched since). Reading each note's history instead
 * looked a name up in an uncached 10,000-entry tree per note and per commit: minutes at 10,000
 * notes, on the first request after a start with nothing persisted. Past `maxWalk` commits, the
 * notes left read their own history from there (the same answer, for a long line of commits that
 * never touched them).
 */
export async function walkChanges(store: ContentStore, view: Pick<PublishedView, "commit" | "byId">, maxWalk = MAX_WALK): Promise<Map<string, Revision>> {
  const out = new Map<string, Revision>();
  const left = new Set(view.byId.keys());
  const blobs = (snapshot: Snapshot) => new Map(snapshot.notes.map((n) => [n.id, n.blob]));
  let after = blobs(await store.snapshot(view.commit));
  let below: string | undefined = view.commit;
  for (const revision of left.size ? await store.log(view.commit, { limit: maxWalk }) : []) {
    below = revision.parents[0];
    const before = below ? blobs(await store.snapshot(below)) : new Map<string, string>();
    for (const id of left) {
      if (after.get(id) === before.get(id)) continue;
      out.set(id, revision);
      left.delete(id);
    }
    if (!left.size || !below) break;
    after = before;
  }
  // Unchanged in every walked commit: changed at or below `below`.
  const rest = below && left.size ? [...left] : [];
  const found = await Promise.all(rest.map(async (id) => [id, (await store.history(`notes/${id}.md`, below!, { limit: 1 }))[0]] as const));
  for (const [id, latest] of found) if (latest) out.set(id, latest);
  return out;
}

/** The dates of a view one commit (`revision`) after `before`: its changed notes changed in that commit. */
export function nextChanges(before: Pick<PublishedView, "byId">, changes: Changes, after: Pick<PublishedView, "byId">, revision: Revision): Changes {
  const out = new Map(changes);
  for (const id of changes.keys()) if (!after.byId.has(id)) out.delete(id);
  for (const [id, note] of after.byId) if (before.byId.get(id) !== note) out.set(id, revision);
  return out;
}

export async function lastChange(view: PublishedView, id: string): Promise<Revision | null> {
  return (await lastChanges(view)).get(id) ?? null;
}
