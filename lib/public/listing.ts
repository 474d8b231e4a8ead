import type { PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUS_LABEL, STATUSES, type Note, type Status } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { slug } from "@/lib/web/urls";
import {
  filterRecords,
  isFiltered,
  parseRecordQuery,
  recordFacets,
  sortRecords,
  statusChoices,
  type RecordFacets,
  type RecordParams,
  type RecordQuery,
} from "@/lib/public/record-query";

/**
 * What the home page lists, decided once for both of its forms: the HTML page and its Markdown
 * twin (/index.md) call this with the URL's query, so an agent reading the twin sees exactly the
 * notes a reader sees: whatever status, tag and phase leave together, in the order asked for.
 */

export type HomeListing =
  | { kind: "home"; core: Note[]; notes: Note[]; counts: StatusCount[]; total: number; query: RecordQuery; problems: string[] }
  | {
      kind: "filtered";
      title: string;
      notes: Note[];
      /** Per status, the notes the tag and phase filters leave (choicesTotal of them); `total` is the archive's. */
      counts: StatusCount[];
      choicesTotal: number;
      total: number;
      query: RecordQuery;
      problems: string[];
    }
  | { kind: "unknown-status"; value: string; counts: StatusCount[]; total: number };

export type StatusCount = RecordFacets["counts"][number];

/** The status a `?status=` value names, or the value itself when it names no published status. */
export function statusParam(value: string | string[] | null | undefined): { status: Status | null; unknown: string | null } {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return { status: null, unknown: null };
  const known = (STATUSES as readonly string[]).includes(v) && v !== "draft";
  return known ? { status: v as Status, unknown: null } : { status: null, unknown: v };
}

/** True when the records' order needs each note's last change (the table shows it; "updated" sorts by it). */
export const needsUpdated = (q: Pick<RecordQuery, "view" | "sort">) => q.view === "table" || q.sort === "updated";

/**
 * The home page's notes for a URL query (`status`, `tag`, `phase`, `sort`, `dir`, …, read by
 * parseRecordQuery). `titles` are the renamed phases' (lib/content/phases.ts `phaseTitlesAt`): a
 * phase filter is titled by its phase's title. `updated` maps an id to its last change's date; only
 * "sort=updated" reads it.
 */
export function homeListing(
  view: Pick<PublishedView, "notes" | "core">,
  params: RecordParams,
  titles: PhaseTitles,
  updated: ReadonlyMap<string, string> = new Map(),
): HomeListing {
  const { unknown } = statusParam(params.status);
  const counts = statusCounts(view.notes);
  const total = view.notes.length;
  if (unknown !== null) return { kind: "unknown-status", value: unknown, counts, total };
  const { query, problems } = parseRecordQuery(params);
  const notes = sortRecords(filterRecords(view.notes, query), query, updated);
  // The filter line counts what the tag and phase leave, as the page's status links do.
  const choices = statusChoices(view.notes, query);
  if (isFiltered(query))
    return {
      kind: "filtered",
      title: filterTitle(view.notes, query, titles),
      notes,
      counts: choices.counts,
      choicesTotal: choices.total,
      total,
      query,
      problems,
    };
  return { kind: "home", core: view.core, notes, counts, total, query, problems };
}

/** "Status: hypothesis · Phase 5 · Tag: sparse attention", as the filters name it (tags as written in the notes, a phase by its title). */
export function filterTitle(notes: readonly Note[], q: Pick<RecordQuery, "status" | "tag" | "phase">, titles: PhaseTitles): string {
  const parts: string[] = [];
  if (q.status) parts.push(`Status: ${STATUS_LABEL[q.status]}`);
  if (q.phase) {
    const name = notes.find((n) => slug(n.phase) === q.phase)?.phase;
    parts.push(`Phase ${name === undefined ? q.phase : shownPhase(titles, name)}`);
  }
  if (q.tag) parts.push(`Tag: ${tagName(notes, q.tag)}`);
  return parts.join(" · ");
}

function tagName(notes: readonly Note[], tagSlug: string): string {
  for (const n of notes) for (const t of n.tags) if (slug(t) === tagSlug) return t;
  return tagSlug;
}

/** True when the only filter is a status: that page keeps the status's meaning as its lede. */
export const onlyStatus = (q: Pick<RecordQuery, "status" | "tag" | "phase">): q is RecordQuery & { status: Status } =>
  q.status !== null && q.tag === null && q.phase === null;

/** The published statuses that some note has, with how many: the filter bar. */
export function statusCounts(notes: readonly Note[]): StatusCount[] {
  return recordFacets(notes).counts;
}
