import type { PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUSES, type Note, type Status } from "@/lib/notes/schema";

/**
 * What the home page lists, decided once for both of its forms: the HTML page and its Markdown
 * twin (/index.md) call this, so an agent reading the twin sees exactly the notes a reader sees,
 * including whatever the status filter (?status=…) leaves.
 */

export type HomeListing =
  | { kind: "home"; core: Note[]; notes: Note[]; counts: StatusCount[]; total: number }
  | { kind: "status"; status: Status; notes: Note[]; counts: StatusCount[]; total: number }
  | { kind: "unknown-status"; value: string; counts: StatusCount[]; total: number };

export type StatusCount = { status: Status; count: number };

/** The status a `?status=` value names, or the value itself when it names no published status. */
export function statusParam(value: string | string[] | null | undefined): { status: Status | null; unknown: string | null } {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return { status: null, unknown: null };
  const known = (STATUSES as readonly string[]).includes(v) && v !== "draft";
  return known ? { status: v as Status, unknown: null } : { status: null, unknown: v };
}

export function homeListing(view: Pick<PublishedView, "notes" | "core">, statusValue: string | string[] | null | undefined): HomeListing {
  const { status, unknown } = statusParam(statusValue);
  const counts = statusCounts(view.notes);
  const total = view.notes.length;
  if (unknown !== null) return { kind: "unknown-status", value: unknown, counts, total };
  if (status) return { kind: "status", status, notes: view.notes.filter((n) => n.status === status), counts, total };
  return { kind: "home", core: view.core, notes: view.notes, counts, total };
}

/** The published statuses that some note has, with how many: the filter bar. */
export function statusCounts(notes: readonly Note[]): StatusCount[] {
  return PUBLISHED_STATUSES.map((status) => ({ status, count: notes.filter((n) => n.status === status).length })).filter((c) => c.count > 0);
}
