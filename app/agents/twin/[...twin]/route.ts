import { createHash } from "node:crypto";
import { CAPSULE_BUDGET } from "@/lib/agents/capsule";
import { preflight, serveAgent, type Built } from "@/lib/agents/http";
import { ENTRY_BUDGET } from "@/lib/agents/index-entry";
import { MCP_TOOLS } from "@/lib/agents/mcp";
import { perView } from "@/lib/agents/per-view";
import { guideTwin, historyTwin, homeTwin, phaseTwin, searchTwin, tagTwin } from "@/lib/agents/page-twins";
import { pageOfTwinRoute } from "@/lib/agents/twin-paths";
import { getPublishedPhases, phaseTitlesAt } from "@/lib/content/phases";
import { publishedHistory } from "@/lib/public/history";
import { diffNotes } from "@/lib/diff/sections";
import { lastChanges } from "@/lib/content/last-change";
import { phasePage, tagPage } from "@/lib/public/pages";
import { parseRecordQuery, type RecordParams } from "@/lib/public/record-query";
import { FIELD_LABEL, searchNotes, searchReady } from "@/lib/search";
import { WRITE_TOOLS_BY_ROLE } from "@/app/agents/mcp/write-tools";

/**
 * The Markdown twin of a public page. proxy.ts (lib/http/markdown-twin.ts) rewrites `/tags/x.md`,
 * `/index.md?status=…`, `/agents.md` and the like, and the HTML pages asked for with
 * Accept: text/markdown, to this route with the twin's path after /agents/twin
 * (/agents/twin/tags/x.md); the page's own query (status, tag, phase, sort…, q) is read from the
 * request's URL, which is the client's. The page is read from the params alone: after an internal
 * rewrite they are all of the rewrite that reaches a route handler (docs/decisions/twin-route-path.md).
 * Every answer varies on Accept, since the HTML URL can answer it too.
 */

export const dynamic = "force-dynamic";

/** The query keys of "All decision records" (filters, order, grouping); the rest of a query is not the home twin's. */
const RECORD_KEYS = ["status", "tag", "phase", "view", "sort", "dir", "group"] as const;

async function updatedDates(view: Parameters<typeof lastChanges>[0]): Promise<Map<string, string>> {
  const changes = await lastChanges(view);
  return new Map([...changes].map(([id, rev]) => [id, rev.date]));
}

export async function GET(request: Request, context: { params: Promise<{ twin: string[] }> }) {
  const segments = (await context.params).twin;
  const path = `/${segments.join("/")}`;
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 500);
  // Home's filters and order, as the HTML page reads them (lib/public/record-query.ts); each value bounded like q.
  const records: RecordParams = Object.fromEntries(RECORD_KEYS.flatMap((k) => (params.has(k) ? [[k, (params.get(k) ?? "").slice(0, 500)]] : [])));
  const recordsKey = JSON.stringify(records);
  // The ETag names the page and its query; hashed, since both are the client's input.
  const key = createHash("sha256").update(`${path}?${recordsKey}&${q}`).digest("hex").slice(0, 16);
  return serveAgent(request, { variant: `twin.${key}`, media: "markdown", headers: { Vary: "Accept" } }, async ({ view, urls }): Promise<Built> => {
    const page = pageOfTwinRoute(segments);
    const missing = (what: string): Built => ({ status: 404, error: `${what}; the pages with a Markdown twin are listed at ${urls.pagesTxt}` });
    switch (page?.kind) {
      case "home": {
        // Only a sort by date reads history (once per commit, as the HTML table does).
        const [updated, titles] = await Promise.all([
          parseRecordQuery(records).query.sort === "updated" ? updatedDates(view) : undefined,
          phaseTitlesAt(view.commit),
        ]);
        return { body: perView(view, `twin home ${urls.base} ${recordsKey}`, () => homeTwin(view, urls, records, titles, updated)) };
      }
      case "guide":
        return {
          body: perView(view, `twin guide ${urls.base}`, () =>
            guideTwin(view, urls, { entry: ENTRY_BUDGET, capsule: CAPSULE_BUDGET }, MCP_TOOLS, WRITE_TOOLS_BY_ROLE),
          ),
        };
      case "search": {
        const titles = q ? await phaseTitlesAt(view.commit) : {};
        if (q) await searchReady(view, titles);
        return { body: searchTwin(view, urls, q, q ? await searchNotes(view, q, { limit: 50, titles }) : [], FIELD_LABEL) };
      }
      case "tag": {
        const tag = tagPage(view, page.tag);
        return tag ? { body: tagTwin(view, urls, tag, await phaseTitlesAt(view.commit)) } : missing(`no published note has the tag "${page.tag}"`);
      }
      case "phase": {
        const { phases } = await getPublishedPhases(view);
        const found = phasePage(view, phases, page.phase);
        return found ? { body: phaseTwin(view, urls, found, phases) } : missing(`no phase "${page.phase}"`);
      }
      case "history": {
        const note = view.byId.get(page.id);
        if (!note) return missing(`no published note ${page.id}`);
        const [revisions, titles] = await Promise.all([publishedHistory(view, note.id), phaseTitlesAt(view.commit)]);
        return { body: historyTwin(view, urls, note, revisions, (before, after) => diffNotes(before, after, titles)) };
      }
      default:
        return missing(`"${path}" is not a public page with a Markdown twin`);
    }
  });
}

export const OPTIONS = preflight;
