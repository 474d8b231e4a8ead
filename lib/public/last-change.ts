import { getContentStore } from "@/lib/working-copy/content-store";
import type { PublishedView } from "@/lib/content/published";
import { publishedNotes } from "@/lib/content/published-notes";
import type { Revision } from "@/lib/store/types";

/**
 * When each published note last changed, and who changed it: the newest commit on main that touched
 * its file, as of the view's commit (the note is published there, so that commit is a published
 * revision). Kept per commit, one copy per process (on globalThis). When main moved by one commit,
 * the new dates come from the previous ones and the notes that commit changed (a note object is
 * one blob, so a different object is a changed file); otherwise every note's history is read, which
 * the store remembers per file, so it walks only commits it has not seen.
 */

type Changes = ReadonlyMap<string, Revision>;
type State = { last: { commit: string; changes: Promise<Changes> } | null; done: { view: PublishedView; changes: Changes } | null };
const KEY = Symbol.for("field-notes.last-changes");
const holder = globalThis as typeof globalThis & { [KEY]?: State };
const state = (): State => (holder[KEY] ??= { last: null, done: null });

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

async function load(view: PublishedView, base: State["done"]): Promise<Changes> {
  const store = await getContentStore();
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
  const entries = await Promise.all(
    view.notes.map(async (note) => {
      const [latest] = await store.history(`notes/${note.id}.md`, view.commit, { limit: 1 });
      return latest ? ([note.id, latest] as const) : null;
    }),
  );
  return new Map(entries.filter((e) => e !== null));
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
