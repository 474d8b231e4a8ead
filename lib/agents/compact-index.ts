import type { PublishedView } from "@/lib/content/published";
import type { PhaseTitles } from "@/lib/phases/schema";
import { PUBLISHED_STATUSES, STATUS_MEANING } from "@/lib/notes/schema";
import { indexEntry, indexEntryMarkdown } from "./index-entry";
import { LIMIT_LEGEND } from "./limits";
import { indexPage, INDEX_JSON_PAGE_SIZE, INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import type { IndexDocument } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * The compact index: step one of the retrieval protocol. Every published note, newest first,
 * one entry each, INDEX_PAGE_SIZE lines to a Markdown page and INDEX_JSON_PAGE_SIZE entries to a
 * JSON page (one page for any archive that fits); the status
 * rules and URL patterns are said once at the top. The Markdown entries are the very lines of
 * /llms.txt, so an agent that starts here reads the same index.
 */

type IndexView = Pick<PublishedView, "commit" | "site" | "notes">;

/** A page of the index, or what is wrong with the cursor. `next` is the URL of the following page. */
export type Paged<T> = { ok: true; body: T; next: string | null } | { ok: false; error: string };

/** `titles`: the commit's renamed phases (lib/content/phases.ts `phaseTitlesAt`), each entry's `phase_title`. */
export function compactIndexJson(view: IndexView, urls: AgentUrls, titles: PhaseTitles, cursor: string | null = null): Paged<IndexDocument> {
  const page = indexPage(view.notes, cursor, INDEX_JSON_PAGE_SIZE);
  if (!page.ok) return page;
  const next = page.next ? urls.indexPage(page.next, "json") : null;
  return {
    ok: true,
    next,
    body: {
      commit: view.commit,
      site: { title: view.site.title, url: urls.home, guide: urls.guide },
      retrieval: view.site.agents.retrieval,
      statuses: statusMeanings(),
      legend: [...LIMIT_LEGEND],
      count: view.notes.length,
      ...(cursor !== null || next ? { cursor, next } : {}),
      entries: page.notes.map((n) => indexEntry(n, urls, titles)),
    },
  };
}

export function compactIndexMarkdown(view: IndexView, urls: AgentUrls, cursor: string | null = null): Paged<string> {
  const page = indexPage(view.notes, cursor);
  if (!page.ok) return page;
  const next = page.next ? urls.indexPage(page.next) : null;
  const paged = cursor !== null || next !== null;
  const lines = [
    `# ${view.site.title}: compact index`,
    "",
    `${view.notes.length} published notes, newest first, from commit ${view.commit} on main.` +
      (paged ? ` This page lists ${page.notes.length} of them (${INDEX_PAGE_SIZE} a page).` : ""),
    "",
    view.site.agents.retrieval,
    "",
    `- Capsule: ${urls.capsule("{id}", "md")} (or .json); each line below links one.`,
    `- Full note: ${urls.noteAs("{id}", "md")} (or .txt, .json; HTML at ${urls.note("{id}")})`,
    `- Search: ${urls.base}/agents/search.json?q={words}&limit={n}`,
    `- The same entries with phase, tags and every URL: ${urls.indexJson}`,
    "",
    "Each line: ID and title (linking the capsule): status and hard boundaries; core rank if one of the notes to start with. Then the decision in one line.",
    "",
    "Hard limits:",
    ...LIMIT_LEGEND.map((l) => `- ${l.flag}: ${l.meaning}`),
    "",
    "Statuses:",
    ...Object.entries(statusMeanings()).map(([s, m]) => `- ${s}: ${m}`),
    "",
    "## Notes",
    "",
    ...page.notes.map((n) => indexEntryMarkdown(n, urls)),
    "",
    ...(next ? [`Next page: ${next}`, ""] : []),
  ];
  return { ok: true, body: lines.join("\n"), next };
}

export function statusMeanings(): IndexDocument["statuses"] {
  return Object.fromEntries(PUBLISHED_STATUSES.map((s) => [s, STATUS_MEANING[s]])) as IndexDocument["statuses"];
}
