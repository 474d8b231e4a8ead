import type { PublishedView } from "@/lib/content/published";
import { searchNotes } from "@/lib/search";
import { indexEntry } from "./index-entry";
import type { Note } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import type { IndexEntry, SearchDocument } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * Search for agents: the site's own search (lib/search), answered as compact index entries with
 * the score, field and passage of each match, so a result reads like an index entry. `titles` are
 * the commit's renamed phases (lib/content/phases.ts `phaseTitlesAt`): search matches a phase's
 * title, and an entry names it as `phase_title`.
 */

export const SEARCH_LIMIT = { default: 10, max: 50 } as const;

export async function agentSearch(view: PublishedView, urls: AgentUrls, titles: PhaseTitles, query: string, limit: number): Promise<SearchDocument> {
  const results = (await searchNotes(view, query, { limit, titles })).flatMap((hit) => {
    const note = view.byId.get(hit.id);
    return note ? [{ ...entryOf(note, urls, titles), score: round(hit.score), field: hit.field, passage: hit.passage }] : [];
  });
  return { commit: view.commit, query, limit, count: results.length, results };
}

// A note's index entry, kept while the note object lives (one per blob) for the last origin it was
// asked for: its one-line decision is fitted in real tokens, and building ten of them cost more
// than the search itself (bench:search's route-handler rows). Only a note answered before is
// spared it (the bench's 30 queries return 276 distinct notes in 300 hits): the cost is
// oneLineDecision parsing the whole Decision section. One entry per note at most, so the memory is
// bounded by the archive, whatever origins clients name. A rename of its phase is a new entry.
const entries = new WeakMap<Note, { base: string; phase: string; entry: IndexEntry }>();
function entryOf(note: Note, urls: AgentUrls, titles: PhaseTitles): IndexEntry {
  const kept = entries.get(note);
  const phase = shownPhase(titles, note.phase);
  if (kept?.base === urls.base && kept.phase === phase) return kept.entry;
  const entry = indexEntry(note, urls, titles);
  entries.set(note, { base: urls.base, phase, entry });
  return entry;
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
