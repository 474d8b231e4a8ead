import { preflight, serveAgent } from "@/lib/agents/http";
import { agentSearch, parseLimit } from "@/lib/agents/search";
import { phaseTitlesAt } from "@/lib/content/phases";
import { searchReady } from "@/lib/search";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  const params = new URL(request.url).searchParams;
  const q = params.get("q")?.trim() ?? "";
  const limit = parseLimit(params.get("limit"));
  // The ETag names the commit; the URL (and so the query) is already part of any cache key.
  return serveAgent(request, { variant: "search.json", media: "json" }, async ({ view, urls }) => {
    if (!q) return { status: 400, error: "q is missing: ask /agents/search.json?q=words+of+your+task" };
    if (q.length > 500) return { status: 400, error: `q is ${q.length} characters long; at most 500` };
    if (!limit.ok) return { status: 400, error: limit.error };
    // The first search after a start waits for the index build; other requests do not.
    const titles = await phaseTitlesAt(view.commit);
    await searchReady(view, titles);
    return { body: await agentSearch(view, urls, titles, q, limit.limit) };
  });
}

export const OPTIONS = preflight;
