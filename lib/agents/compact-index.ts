import type { PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUS_MEANING } from "@/lib/notes/schema";
import { indexEntry, indexEntryMarkdown } from "./index-entry";
import { LIMIT_LEGEND } from "./limits";
import type { IndexDocument } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * The compact index: step one of the retrieval protocol. Every published note, newest first,
 * one entry each; the status rules and URL patterns are said once at the top.
 */

type IndexView = Pick<PublishedView, "commit" | "site" | "notes">;

export function compactIndexJson(view: IndexView, urls: AgentUrls): IndexDocument {
  return {
    commit: view.commit,
    site: { title: view.site.title, url: urls.home, guide: urls.guide },
    retrieval: view.site.agents.retrieval,
    statuses: statusMeanings(),
    legend: [...LIMIT_LEGEND],
    count: view.notes.length,
    entries: view.notes.map((n) => indexEntry(n, urls)),
  };
}

export function compactIndexMarkdown(view: IndexView, urls: AgentUrls): string {
  const lines = [
    `# ${view.site.title}: compact index`,
    "",
    `${view.notes.length} published notes, newest first, from commit ${view.commit} on main.`,
    "",
    view.site.agents.retrieval,
    "",
    `- Capsule: ${urls.capsule("{id}", "md")} (or .json)`,
    `- Full note: ${urls.noteAs("{id}", "md")} (or .txt, .json; HTML at ${urls.note("{id}")})`,
    `- Search: ${urls.base}/agents/search.json?q={words}&limit={n}`,
    "",
    "Each entry: ID, title — status and boundaries · phase · core rank (if one of the notes to start with) · tags; then the decision in one line.",
    "",
    "Hard limits:",
    ...LIMIT_LEGEND.map((l) => `- ${l.flag}: ${l.meaning}`),
    "",
    "Statuses:",
    ...Object.entries(statusMeanings()).map(([s, m]) => `- ${s}: ${m}`),
    "",
    "## Notes",
    "",
    ...view.notes.map(indexEntryMarkdown),
    "",
  ];
  return lines.join("\n");
}

export function statusMeanings(): IndexDocument["statuses"] {
  return Object.fromEntries(PUBLISHED_STATUSES.map((s) => [s, STATUS_MEANING[s]])) as IndexDocument["statuses"];
}
