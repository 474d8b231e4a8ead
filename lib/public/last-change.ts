import type { PublishedView } from "@/lib/content/published";
import { getContentStore } from "@/lib/store";
import type { Revision } from "@/lib/store/types";

/**
 * When each published note last changed, and who changed it: the newest commit on main that touched
 * its file, as of the view's commit (the note is published there, so that commit is a published
 * revision). Kept per commit; the store remembers file histories, so a new commit walks only itself.
 */

let last: { commit: string; changes: Promise<ReadonlyMap<string, Revision>> } | null = null;

export function lastChanges(view: PublishedView): Promise<ReadonlyMap<string, Revision>> {
  if (last?.commit === view.commit) return last.changes;
  const changes = load(view);
  last = { commit: view.commit, changes };
  // A failed read is retried on the next request, not remembered for the commit.
  changes.catch(() => {
    if (last?.changes === changes) last = null;
  });
  return changes;
}

async function load(view: PublishedView): Promise<ReadonlyMap<string, Revision>> {
  const store = await getContentStore();
  const entries = await Promise.all(
    view.notes.map(async (note) => {
      const [latest] = await store.history(`notes/${note.id}.md`, view.commit);
      return latest ? ([note.id, latest] as const) : null;
    }),
  );
  return new Map(entries.filter((e) => e !== null));
}

export async function lastChange(view: PublishedView, id: string): Promise<Revision | null> {
  return (await lastChanges(view)).get(id) ?? null;
}

