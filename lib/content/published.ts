import { getContentStore, type ContentStore, type Snapshot } from "@/lib/working-copy/content-store";
import { lastChanges, seedChanges } from "@/lib/content/last-change";
import { persistLater as persistReadModel, restorePersisted } from "@/lib/read-model";
import { readSide } from "@/lib/read-model/read-side";
import { MAIN_REF, noMain } from "@/lib/working-copy/layout";
import type { Oid, Revision } from "@/lib/store/types";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { parseSite, SITE_FILE, type Site } from "./site";
import { mentionedIds } from "./links";
import { patchPublished, publishedNotes } from "./published-notes";
import { acceptedMain, knownServed, refusedCommits } from "./accepted-main";

/**
 * The published view: what the public and agents may see. Built only from `main`, only from
 * notes whose status is published (never draft), and cached by the commit it was built from, so a
 * commit on main (from the app or from plain git) shows on the next request.
 *
 * A new commit's view is derived from the previous one: the store's snapshot reuses every note
 * whose blob did not change (same object), so only the notes that differ are re-sorted and have
 * their links re-read. One view per process, in the read side's state (lib/read-model/read-side.ts).
 */

/** What the public and agents read: main (lib/working-copy/layout.ts). */
export const PUBLISHED_REF = MAIN_REF;

export type PublishedView = {
  commit: Oid;
  site: Site;
  /** Published notes in the editorial order of "All decision records" (higher `order` first). */
  notes: Note[];
  byId: ReadonlyMap<string, Note>;
  /** The "start with the architecture" decisions, by core rank. */
  core: Note[];
  /** id → ids of published notes that mention or relate to it, in editorial order. */
  backlinks: ReadonlyMap<string, string[]>;
};

export type Derived = PublishedView & {
  /** The text of site.yaml, so an unchanged site is not parsed again. */
  siteText: string;
  /** target id → published notes linking to it (targets need not be published). */
  linkers: ReadonlyMap<string, ReadonlySet<string>>;
};

export type PublishedState = {
  last: { commit: Oid; view: Promise<Derived> } | null;
  base: Derived | null;
  /** The persisted read model, read once per process before the first view is built. */
  restored: Promise<void> | null;
  /** Each note object's links (see `linksOf`). */
  links: WeakMap<Note, string[]>;
};
const state = (): PublishedState => (readSide().view ??= { last: null, base: null, restored: null, links: new WeakMap() });

/**
 * The commit of main readers are served: the tip, or while the rules refuse it the newest commit
 * they accept (./accepted-main.ts); null when main does not exist. Everything public (pages, agent
 * formats, images, their ETags, X-Content-Commit and CSP nonces) is of this commit. The persisted
 * read model is restored first: read before main's new commits are judged, so judging a commit made
 * while the server was down parses only the notes it wrote, not all of them (a warm start after a
 * commit took 3.6 s against 1.7 s when the proxy judged first).
 */
export async function servedCommit(): Promise<Oid | null> {
  const store = await getContentStore();
  const tip = await store.resolve(PUBLISHED_REF);
  if (!tip) return null;
  // Judged already (the usual case, and a warm start on the commit the last run served): no wait
  // for the read model, so a page kept on disk answers at once.
  const known = await knownServed(store, tip);
  if (known) return known;
  await restored(store);
  return (await acceptedMain(store, tip)).served;
}

/** The persisted read model, read once per process: a damaged or unreadable one is only a slower start, never a failed request. */
function restored(store: ContentStore): Promise<void> {
  return (state().restored ??= restoreReadModel(store).catch(() => undefined));
}

export async function getPublishedView(): Promise<PublishedView> {
  const commit = await servedCommit();
  if (!commit) throw noMain();
  const s = state();
  if (s.last?.commit === commit) return s.last.view;
  // The first view of a process is derived from the persisted one, when there is one.
  await restored(await getContentStore());
  if (s.last?.commit === commit) return s.last.view;
  const view = buildView(commit);
  s.last = { commit, view };
  view.then(
    (v) => {
      s.base = v;
      persistLater(v);
    },
    // A failed build (a broken site.yaml, a read error) is retried on the next request, not kept.
    () => {
      if (s.last?.view === view) s.last = null;
    },
  );
  return view;
}

/**
 * Start from what the previous run of this build persisted (lib/read-model): its parsed notes go
 * to the store (so a snapshot parses only blobs it has not seen), its links to the state's `links`, and the
 * view of its commit, rebuilt from those without reading a note, becomes the base the current
 * commit's view is derived from, with its last-change dates.
 */
async function restoreReadModel(store: ContentStore): Promise<void> {
  const persisted = await restorePersisted(store);
  if (!persisted) return;
  for (const n of persisted.notes.values()) if (n.parsed.ok && n.links) state().links.set(n.parsed.note, n.links);
  const head = persisted.head;
  if (!head || !(await store.log(head.commit, { limit: 1 }).catch(() => null))) return;
  const base = await buildView(head.commit);
  // The dates belong to exactly these notes, or they are not used.
  const sameNotes = base.notes.length === head.published.length && head.published.every(([id]) => base.byId.has(id));
  state().base ??= base;
  if (sameNotes && state().base === base) seedChanges(base, new Map(head.dates));
}

/** After a new view: persist it (its notes by blob, their links, its published notes and dates), off the request path. */
function persistLater(view: Derived): void {
  persistReadModel(async () => {
    const store = await getContentStore();
    const [snapshot, dates] = await Promise.all([store.snapshot(view.commit), lastChanges(view)]);
    const notes = snapshot.notes.map((n) =>
      n.ok ? { blob: n.blob, parsed: { ok: true as const, note: n.note }, links: linksOf(n.note) } : { blob: n.blob, parsed: { ok: false as const, errors: n.errors }, links: null },
    );
    const published = snapshot.notes.flatMap((n): [string, Oid][] => (n.ok && view.byId.get(n.id) === n.note ? [[n.id, n.blob]] : []));
    return { notes, head: { commit: view.commit, published, dates: [...dates] } };
  });
}

async function buildView(commit: Oid): Promise<Derived> {
  const store = await getContentStore();
  const [snapshot, siteText] = await Promise.all([store.snapshot(commit), store.readFile(commit, SITE_FILE)]);
  if (siteText === null) throw new Error(`${SITE_FILE} is missing from the content repository at ${commit}`);
  const base = state().base;
  return deriveView(base, snapshot, base?.siteText === siteText ? base.site : parseSite(siteText), siteText);
}

export { publishedNotes };

/**
 * The view of `snapshot`, from `base` (the previous view, or null for a full build). Exported for
 * the test that holds it equal to a full build after any sequence of commits.
 */
export function deriveView(base: Derived | null, snapshot: Snapshot, site: Site, siteText = ""): Derived {
  // The snapshot says what differs from the base's commit: patch its notes instead of reading 10,000.
  const delta = base && snapshot.delta?.from === base.commit ? snapshot.delta : null;
  const byId = base && delta ? patchPublished(base.byId, delta) : publishedNotes(snapshot);
  const changed = base ? changedIds(base.byId, byId, delta) : null;
  // Many changes at once (a big push): a full sort and link scan is as cheap as patching.
  if (!base || !changed || changed.size > Math.max(64, byId.size / 8)) return fullView(snapshot.commit, byId, site, siteText);
  if (changed.size === 0) return { ...base, commit: snapshot.commit, site, siteText, byId };

  // Out of a copy of the base's list, each changed note's old entry is found by binary search (the
  // list is in a total order), not by filtering every note.
  const notes = base.notes.slice();
  for (const id of changed) {
    const old = base.byId.get(id);
    if (!old) continue;
    let at = insertAt(notes, old);
    if (notes[at] !== old) at = notes.indexOf(old); // not where the order says: never expected
    if (at >= 0) notes.splice(at, 1);
  }
  for (const id of changed) {
    const note = byId.get(id);
    if (note) notes.splice(insertAt(notes, note), 0, note);
  }
  // Links: drop what the changed notes linked to before, add what they link to now.
  const linkers = new Map(base.linkers);
  const touched = new Set<string>(changed);
  const edit = (target: string, source: string, add: boolean) => {
    const set = new Set(linkers.get(target) ?? []);
    if (add) set.add(source);
    else set.delete(source);
    if (set.size) linkers.set(target, set);
    else linkers.delete(target);
    touched.add(target);
  };
  for (const id of changed) {
    const before = base.byId.get(id);
    const after = byId.get(id);
    for (const t of before ? linksOf(before) : []) edit(t, id, false);
    for (const t of after ? linksOf(after) : []) edit(t, id, true);
  }
  const backlinks = new Map(base.backlinks);
  for (const target of touched) {
    const list = byId.has(target) ? sortedSources(linkers.get(target), byId) : [];
    if (list.length) backlinks.set(target, list);
    else backlinks.delete(target);
  }
  const coreChanged = [...changed].some((id) => base.byId.get(id)?.core || byId.get(id)?.core);
  const core = coreChanged ? coreOf(notes) : base.core;
  return { commit: snapshot.commit, site, siteText, notes, byId, core, backlinks, linkers };
}

function fullView(commit: Oid, byId: Map<string, Note>, site: Site, siteText: string): Derived {
  const notes = [...byId.values()].sort(byEditorialOrder);
  const linkers = new Map<string, Set<string>>();
  for (const note of notes) {
    for (const target of linksOf(note)) {
      let set = linkers.get(target);
      if (!set) linkers.set(target, (set = new Set()));
      set.add(note.id);
    }
  }
  const backlinks = new Map<string, string[]>();
  for (const [target, sources] of linkers) {
    if (byId.has(target)) backlinks.set(target, sortedSources(sources, byId));
  }
  return { commit, site, siteText, notes, byId, core: coreOf(notes), backlinks, linkers };
}

/** The ids whose published note differs between two views; with a delta, only its files are looked at. */
function changedIds(before: ReadonlyMap<string, Note>, after: ReadonlyMap<string, Note>, delta: Snapshot["delta"] | null): Set<string> {
  const out = new Set<string>();
  if (delta) {
    for (const s of [...delta.changed, ...delta.removed]) if (before.get(s.id) !== after.get(s.id)) out.add(s.id);
    return out;
  }
  for (const id of before.keys()) if (!after.has(id)) out.add(id);
  for (const [id, note] of after) if (before.get(id) !== note) out.add(id);
  return out;
}

// A note's links are read once per note object (one per blob): mentions scan every section. Kept
// in the read side's state, not this module: Next loads the module once per bundle layer, and the
// links a restart restores (instrumentation.ts's layer) must be the ones the next commit's view and
// persist read (a route's layer), or the first commit after a warm start scanned all 10,000 notes
// again on the request thread (97 ms at 10,000 notes, in a CPU profile).
/** The ids `note` links to (related and mentioned), itself left out. */
export function linksOf(note: Note): string[] {
  const links = state().links;
  let out = links.get(note);
  if (!out) {
    out = [...new Set([...note.related, ...mentionedIds(note)])].filter((t) => t !== note.id);
    links.set(note, out);
  }
  return out;
}

function sortedSources(sources: ReadonlySet<string> | undefined, byId: ReadonlyMap<string, Note>): string[] {
  return [...(sources ?? [])].map((id) => byId.get(id)!).sort(byEditorialOrder).map((n) => n.id);
}

const coreOf = (notes: Note[]) => notes.filter((n) => n.core).sort((a, b) => (a.core?.rank ?? 0) - (b.core?.rank ?? 0));

/** Where `note` goes in a list sorted by editorial order (binary search). */
function insertAt(notes: Note[], note: Note): number {
  let lo = 0;
  let hi = notes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (byEditorialOrder(notes[mid]!, note) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function byEditorialOrder(a: Note, b: Note) {
  return b.order - a.order || a.id.localeCompare(b.id);
}

export async function getPublishedNote(id: string): Promise<Note | null> {
  return (await getPublishedView()).byId.get(id) ?? null;
}

export type PublishedRevision = Revision & { note: Note };

/**
 * Every published revision of one note, newest first: commits on main that changed its file while
 * its status there was a published one. A revision where the file was deleted or invalid is left
 * out. A commit the rules refused was never shown to readers (./accepted-main.ts): what it did to
 * the note reached them with the first commit served after it, so it is listed under that commit
 * (the newest such change only, since that is what was served), and not at all when that was the
 * version readers had before (the revert of a refused change).
 * From the commit the published view serves, or from `at` (a commit on main: the history as of then, which never changes).
 */
export async function getPublishedHistory(id: string, at?: string): Promise<PublishedRevision[]> {
  const store = await getContentStore();
  // By default as of the commit the published view serves (a refused commit on main is not history yet).
  const revisions = await store.history(`notes/${id}.md`, at ?? (await getPublishedView()).commit);
  const refused = refusedCommits(store);
  const kept: (PublishedRevision & { blob: Oid })[] = [];
  for (const revision of revisions) {
    const shown = refused.has(revision.commit) ? refused.get(revision.commit) : revision.commit;
    // Not served yet (above `at`), or a newer change of the note was served by the same commit.
    if (!shown || kept.at(-1)?.commit === shown) continue;
    const stored = await store.readNote(id, revision.commit);
    if (stored?.ok && isPublishedStatus(stored.note.status)) kept.push({ ...revision, commit: shown, note: stored.note, blob: stored.blob });
  }
  return kept.filter((r, i) => r.blob !== kept[i + 1]?.blob).map(({ blob: _, ...revision }) => revision);
}
