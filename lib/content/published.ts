import { getContentStore } from "@/lib/store";
import type { Oid, Revision } from "@/lib/store/types";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { parseSite, SITE_FILE, type Site } from "./site";
import { mentionedIds } from "./links";

/**
 * The published view: what the public and agents may see. Built only from `main`, only from
 * notes whose status is published (never draft), and cached by the commit it was built from, so a
 * commit on main (from the app or from plain git) shows on the next request.
 */

export const PUBLISHED_REF = "refs/heads/main";

export type PublishedView = {
  commit: Oid;
  site: Site;
  /** Published notes in the editorial order of "All decision records" (higher `order` first). */
  notes: Note[];
  byId: ReadonlyMap<string, Note>;
  /** The "start with the architecture" decisions, by core rank. */
  core: Note[];
  /** id → ids of published notes that mention or relate to it. */
  backlinks: ReadonlyMap<string, string[]>;
};

let last: { commit: Oid; view: Promise<PublishedView> } | null = null;

export async function getPublishedView(): Promise<PublishedView> {
  const store = await getContentStore();
  const commit = await store.resolve(PUBLISHED_REF);
  if (!commit) throw new Error(`the content repository has no ${PUBLISHED_REF}`);
  if (last?.commit === commit) return last.view;
  const view = buildView(commit);
  last = { commit, view };
  // A failed build (a broken site.yaml, a read error) is retried on the next request, not kept.
  view.catch(() => {
    if (last?.view === view) last = null;
  });
  return view;
}

async function buildView(commit: Oid): Promise<PublishedView> {
  const store = await getContentStore();
  const [snapshot, siteText] = await Promise.all([store.snapshot(commit), store.readFile(commit, SITE_FILE)]);
  if (siteText === null) throw new Error(`${SITE_FILE} is missing from the content repository at ${commit}`);
  const notes = snapshot.notes
    .flatMap((s) => (s.ok && s.id === s.note.id && isPublishedStatus(s.note.status) ? [s.note] : []))
    .sort(byEditorialOrder);
  const byId = new Map(notes.map((n) => [n.id, n]));
  const core = notes.filter((n) => n.core).sort((a, b) => (a.core?.rank ?? 0) - (b.core?.rank ?? 0));
  return { commit, site: parseSite(siteText), notes, byId, core, backlinks: backlinksOf(notes) };
}

function byEditorialOrder(a: Note, b: Note) {
  return b.order - a.order || a.id.localeCompare(b.id);
}

function backlinksOf(notes: Note[]): Map<string, string[]> {
  const ids = new Set(notes.map((n) => n.id));
  const links = new Map<string, string[]>();
  for (const note of notes) {
    for (const target of new Set([...note.related, ...mentionedIds(note)])) {
      if (target === note.id || !ids.has(target)) continue;
      links.set(target, [...(links.get(target) ?? []), note.id]);
    }
  }
  return links;
}

export async function getPublishedNote(id: string): Promise<Note | null> {
  return (await getPublishedView()).byId.get(id) ?? null;
}

export type PublishedRevision = Revision & { note: Note };

/**
 * Every published revision of one note, newest first: commits on main that changed its file while
 * its status there was a published one. A revision where the file was deleted or invalid is left out.
 */
export async function getPublishedHistory(id: string): Promise<PublishedRevision[]> {
  const store = await getContentStore();
  const revisions = await store.history(`notes/${id}.md`, PUBLISHED_REF);
  const out: PublishedRevision[] = [];
  for (const revision of revisions) {
    const stored = await store.readNote(id, revision.commit);
    if (stored?.ok && isPublishedStatus(stored.note.status)) out.push({ ...revision, note: stored.note });
  }
  return out;
}
