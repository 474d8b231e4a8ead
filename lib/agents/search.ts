import type { PublishedView } from "@/lib/content/published";
import { searchNotes } from "@/lib/search";
import { indexEntry } from "./index-entry";
import type { SearchDocument } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * Search for agents: the site's own search (lib/search), answered as compact index entries with
 * the score, field and passage of each match, so a result reads like an index entry.
 */

export const SEARCH_LIMIT = { default: 10, max: 50 } as const;

export function agentSearch(view: PublishedView, urls: AgentUrls, query: string, limit: number): SearchDocument {
  const results = searchNotes(view, query, { limit }).flatMap((hit) => {
    const note = view.byId.get(hit.id);
    return note ? [{ ...indexEntry(note, urls), score: round(hit.score), field: hit.field, passage: hit.passage }] : [];
  });
  return { commit: view.commit, query, limit, count: results.length, results };
}

/** Parse `limit` from a query string: absent is the default; anything but a whole number in range is an error. */
export function parseLimit(raw: string | null): { ok: true; limit: number } | { ok: false; error: string } {
  if (raw === null || raw === "") return { ok: true, limit: SEARCH_LIMIT.default };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > SEARCH_LIMIT.max) {
    return { ok: false, error: `limit must be a whole number from 1 to ${SEARCH_LIMIT.max} (got "${raw}")` };
  }
  return { ok: true, limit: n };
}

const round = (n: number) => Math.round(n * 1000) / 1000;
