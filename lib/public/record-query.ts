import { compareIds, PUBLISHED_STATUSES, STATUSES, type Note, type Status } from "@/lib/notes/schema";
import { slug } from "@/lib/web/urls";

/**
 * "All decision records" as a reader narrows and orders it, all in the URL so a view can be shared
 * and works without JavaScript (links and a GET form): `/?status=hypothesis&phase=5&view=table`.
 * Pure: the page passes the notes (in editorial order) and when each last changed.
 *
 *   status  a published status            tag    a tag (as its slug)     phase  a phase (as its slug)
 *   view    cards (default) | table        sort   order (editorial, default) | id | status | title | phase | updated
 *   dir     asc | desc (each key has its natural default)                  group  phase (group by phase)
 */

export const SORT_KEYS = ["order", "id", "status", "title", "phase", "updated"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export type Direction = "asc" | "desc";
export type RecordsView = "cards" | "table";

export type RecordQuery = {
  status: Status | null;
  tag: string | null;
  phase: string | null;
  view: RecordsView;
  sort: SortKey;
  dir: Direction;
  group: boolean;
};

export const DEFAULT_QUERY: RecordQuery = { status: null, tag: null, phase: null, view: "cards", sort: "order", dir: "asc", group: false };

/** The direction a column sorts in when first chosen: newest first for dates, A→Z for the rest. */
export const naturalDirection = (key: SortKey): Direction => (key === "updated" ? "desc" : "asc");

/** A URL query as Next hands it to a page (and the Markdown twin builds it from URLSearchParams). */
export type RecordParams = Record<string, string | string[] | undefined>;
const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.trim() || null;

/**
 * The query a URL asks for, and what in it was not understood (said on the page; the rest of the
 * query still applies). An unknown status is left to the caller, which has a page for it.
 */
export function parseRecordQuery(params: RecordParams): { query: RecordQuery; problems: string[] } {
  const problems: string[] = [];
  const status = first(params.status);
  const known = status !== null && (PUBLISHED_STATUSES as readonly string[]).includes(status);
  const view = first(params.view);
  const sort = first(params.sort);
  const dir = first(params.dir);
  const group = first(params.group);
  if (view !== null && view !== "cards" && view !== "table") problems.push(`“${view.slice(0, 40)}” is not a view; the views are cards and table.`);
  if (sort !== null && !(SORT_KEYS as readonly string[]).includes(sort))
    problems.push(`“${sort.slice(0, 40)}” is not a column to sort by; the columns are ${SORT_KEYS.join(", ")}.`);
  if (dir !== null && dir !== "asc" && dir !== "desc") problems.push(`“${dir.slice(0, 40)}” is not a direction; use asc or desc.`);
  if (group !== null && group !== "phase") problems.push(`“${group.slice(0, 40)}” cannot be grouped by; records group by phase.`);
  const sortKey = sort !== null && (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : "order";
  const tag = first(params.tag);
  const phase = first(params.phase);
  return {
    query: {
      status: known ? (status as Status) : null,
      tag: tag ? slug(tag) : null,
      phase: phase ? slug(phase) : null,
      view: view === "table" ? "table" : "cards",
      sort: sortKey,
      dir: dir === "asc" || dir === "desc" ? dir : naturalDirection(sortKey),
      group: group === "phase",
    },
    problems,
  };
}

/** True when the query narrows the records (a filter), as opposed to only showing them differently. */
export const isFiltered = (q: Pick<RecordQuery, "status" | "tag" | "phase">) => q.status !== null || q.tag !== null || q.phase !== null;

/** The notes every filter of the query lets through (filters combine: status AND tag AND phase). */
export function filterRecords(notes: readonly Note[], q: Pick<RecordQuery, "status" | "tag" | "phase">): Note[] {
  return notes.filter(
    (n) =>
      (q.status === null || n.status === q.status) &&
      (q.tag === null || n.tags.some((t) => slug(t) === q.tag)) &&
      (q.phase === null || slug(n.phase) === q.phase),
  );
}

// Collators made once: `localeCompare` with a locale or options builds a new one per call, which
// made sorting 10,000 notes or 4,000 tags take 0.1–0.5 s (30× a shared collator's time).
const NUMERIC = new Intl.Collator("en", { numeric: true });
const NUMERIC_BASE = new Intl.Collator("en", { numeric: true, sensitivity: "base" });
const BASE = new Intl.Collator("en", { sensitivity: "base" });

/** Names (tags, titles) as a reader looks them up: letters alike whatever their case or accents. */
export const compareNames = (a: string, b: string): number => BASE.compare(a, b);

/**
 * Phases in a reader's order: by their leading number (0-3, 2, 4, 6-architecture, 8-11 …), then the
 * named ones (agent-operations, …) alphabetically.
 */
export function comparePhases(a: string, b: string): number {
  const na = /^\d+/.exec(a);
  const nb = /^\d+/.exec(b);
  if (na && nb) return Number(na[0]) - Number(nb[0]) || NUMERIC.compare(a, b);
  if (na) return -1;
  if (nb) return 1;
  return NUMERIC_BASE.compare(a, b);
}

const STATUS_RANK = new Map(STATUSES.map((s, i) => [s, i]));

/**
 * The notes in the query's order. `notes` come in editorial order (which "order" keeps); `updated`
 * maps an id to the ISO date of its last change. Ties keep the editorial order, so a sort is stable.
 */
export function sortRecords(notes: readonly Note[], q: Pick<RecordQuery, "sort" | "dir">, updated: ReadonlyMap<string, string>): Note[] {
  // Editorial order is the order the notes came in (the home page's default: no sort of 10,000 notes).
  if (q.sort === "order") return [...notes];
  const editorial = new Map(notes.map((n, i) => [n.id, i]));
  const byKey: Record<Exclude<SortKey, "order">, (a: Note, b: Note) => number> = {
    id: (a, b) => compareIds(a.id, b.id),
    status: (a, b) => (STATUS_RANK.get(a.status) ?? 0) - (STATUS_RANK.get(b.status) ?? 0),
    title: (a, b) => compareNames(a.title, b.title),
    phase: (a, b) => comparePhases(a.phase, b.phase),
    // An unknown date sorts as the oldest.
    updated: (a, b) => (updated.get(a.id) ?? "").localeCompare(updated.get(b.id) ?? ""),
  };
  const sign = q.dir === "desc" ? -1 : 1;
  const compare = byKey[q.sort];
  return [...notes].sort((a, b) => sign * compare(a, b) || (editorial.get(a.id) ?? 0) - (editorial.get(b.id) ?? 0));
}

export type PhaseGroup = { phase: string; notes: Note[] };

/** The notes in groups by phase (phases in comparePhases order), each group keeping the notes' order. */
export function groupByPhase(notes: readonly Note[]): PhaseGroup[] {
  const groups = new Map<string, Note[]>();
  for (const n of notes) {
    const group = groups.get(n.phase);
    if (group) group.push(n);
    else groups.set(n.phase, [n]);
  }
  return [...groups].sort(([a], [b]) => comparePhases(a, b)).map(([phase, list]) => ({ phase, notes: list }));
}

/** The URL of the records with `change` applied; defaults are left out, so the plain list is `/`. */
export function recordsHref(q: RecordQuery, change: Partial<RecordQuery> = {}, page?: number): string {
  const next = { ...q, ...change };
  const params = new URLSearchParams();
  if (next.status) params.set("status", next.status);
  if (next.tag) params.set("tag", next.tag);
  if (next.phase) params.set("phase", next.phase);
  if (next.view !== "cards") params.set("view", next.view);
  if (next.sort !== "order") params.set("sort", next.sort);
  if (next.sort !== "order" && next.dir !== naturalDirection(next.sort)) params.set("dir", next.dir);
  if (next.group) params.set("group", "phase");
  if (page && page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `/?${s}` : "/";
}

/** The link a column heading makes: sort by it, or flip the direction when it already sorts the table. */
export function sortHref(q: RecordQuery, key: SortKey): string {
  if (q.sort === key && key !== "order") return recordsHref(q, { dir: q.dir === "asc" ? "desc" : "asc" });
  return recordsHref(q, { sort: key, dir: naturalDirection(key) });
}

/** The notes before and after `id` in a list (the editorial order for note pages): null at either end. */
export function neighbors<T extends { id: string }>(list: readonly T[], id: string): { previous: T | null; next: T | null } {
  const at = list.findIndex((n) => n.id === id);
  if (at < 0) return { previous: null, next: null };
  return { previous: list[at - 1] ?? null, next: list[at + 1] ?? null };
}

export type RecordFacets = {
  /** The published statuses some note has, with how many, in the statuses' order. */
  counts: { status: Status; count: number }[];
  /** Each tag as its slug and as first written, in first-seen order. */
  tags: [string, string][];
  /** How many notes carry each tag, by slug. */
  tagUses: ReadonlyMap<string, number>;
  /** Every phase, in comparePhases order. */
  phases: string[];
};

// One view's notes array per commit: its facets are counted once, not on every render of the filters.
const facets = new WeakMap<readonly Note[], RecordFacets>();

/**
 * The status filter's choices as a reader narrowed by tag and phase sees them: how many notes of each
 * status those two filters leave (so "8 of 21" reads "hypothesis 3 · verified 5", not the archive's
 * counts). The chosen status stays listed even when nothing is left of it.
 */
export function statusChoices(all: readonly Note[], q: Pick<RecordQuery, "status" | "tag" | "phase">): { total: number; counts: RecordFacets["counts"] } {
  if (q.tag === null && q.phase === null) return { total: all.length, counts: recordFacets(all).counts };
  const left = filterRecords(all, { status: null, tag: q.tag, phase: q.phase });
  const byStatus = new Map<Status, number>();
  for (const n of left) byStatus.set(n.status, (byStatus.get(n.status) ?? 0) + 1);
  const counts = PUBLISHED_STATUSES.map((status) => ({ status, count: byStatus.get(status) ?? 0 })).filter((c) => c.count > 0 || c.status === q.status);
  return { total: left.length, counts };
}

/**
 * The one address of a query: `recordsHref` of what the URL asks for, or null when the URL already
 * is it. The filter form is a plain GET form (it works without JavaScript), so it sends its empty
 * choices too (`?status=&tag=&phase=&sort=order`); the page redirects such an address to its
 * canonical form, which is also what a reader shares. A URL with something not understood is left
 * alone: the page says what it did not understand.
 */
export function canonicalRecordsHref(params: RecordParams): string | null {
  const { query, problems } = parseRecordQuery(params);
  // An unknown status has a page of its own that says so; it is not tidied away.
  const status = first(params.status);
  if (problems.length || (status !== null && query.status === null)) return null;
  const rawPage = first(params.page);
  const page = rawPage === null ? 1 : /^\d+$/.test(rawPage) ? Number(rawPage) : null;
  if (page === null) return null;
  const canonical = recordsHref(query, {}, page);
  // Only the records' own keys are compared: anything else in the URL is not the page's to tidy.
  const asked = new URLSearchParams();
  for (const key of RECORD_KEYS) {
    const v = params[key];
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) asked.append(key, one);
  }
  const canonicalParams = new URLSearchParams(canonical.slice(2));
  canonicalParams.sort();
  asked.sort();
  return asked.toString() === canonicalParams.toString() ? null : canonical;
}

const RECORD_KEYS = ["status", "tag", "phase", "view", "sort", "dir", "group", "page"] as const;

/** The filter bar's and the filter form's choices for `notes` (every published note of a view). */
export function recordFacets(notes: readonly Note[]): RecordFacets {
  let f = facets.get(notes);
  if (!f) {
    const byStatus = new Map<Status, number>();
    const tags = new Map<string, string>();
    const tagUses = new Map<string, number>();
    const phases = new Set<string>();
    for (const n of notes) {
      byStatus.set(n.status, (byStatus.get(n.status) ?? 0) + 1);
      for (const t of n.tags) {
        const key = slug(t);
        if (!tags.has(key)) tags.set(key, t);
        tagUses.set(key, (tagUses.get(key) ?? 0) + 1);
      }
      phases.add(n.phase);
    }
    const counts = PUBLISHED_STATUSES.map((status) => ({ status, count: byStatus.get(status) ?? 0 })).filter((c) => c.count > 0);
    f = { counts, tags: [...tags], tagUses, phases: [...phases].sort(comparePhases) };
    facets.set(notes, f);
  }
  return f;
}

/**
 * How many tags the filter form offers at most. A select of thousands of tags cannot be used, and
 * home's bytes would grow with the archive's vocabulary: bench:read's realistic corpus has 3,868
 * tags, 2,909 of them on one note each, which made its select 165 KB of a 238 KB page.
 */
export const TAG_CHOICES = 100;

/**
 * The filter form's tags, by name: every tag when there are at most `max`, else the `max` most used
 * (ties by name) and the one chosen. `total` is how many tags there are, `mostUsed` how many of the
 * most used are listed; any tag's notes are at its own page (/tags/<tag>), and search matches tags.
 */
export function tagChoices(facets: RecordFacets, chosen: string | null, max = TAG_CHOICES): { tags: [string, string][]; total: number; mostUsed: number } {
  const total = facets.tags.length;
  let top = topTags.get(facets);
  if (!top || top.max !== max) {
    const uses = (t: [string, string]) => facets.tagUses.get(t[0]) ?? 0;
    const most = total > max ? [...facets.tags].sort((a, b) => uses(b) - uses(a) || byName(a, b)).slice(0, max) : facets.tags;
    topTags.set(facets, (top = { max, tags: [...most].sort(byName) }));
  }
  const picked = chosen === null || total <= max || top.tags.some(([key]) => key === chosen) ? undefined : facets.tags.find(([key]) => key === chosen);
  return { tags: picked ? [...top.tags, picked].sort(byName) : top.tags, total, mostUsed: top.tags.length };
}

const byName = (a: [string, string], b: [string, string]) => compareNames(a[1], b[1]);
// The most used tags of one view's facets, sorted once per commit rather than on every render of home.
const topTags = new WeakMap<RecordFacets, { max: number; tags: [string, string][] }>();
