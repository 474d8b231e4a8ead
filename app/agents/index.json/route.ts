import { compactIndexJson } from "@/lib/agents/compact-index";
import { phaseTitlesAt } from "@/lib/content/phases";
import { preflight, serveAgent } from "@/lib/agents/http";
import { perView } from "@/lib/agents/per-view";

export const dynamic = "force-dynamic";

/** The compact index as JSON, a page at a time (?cursor=… from `next`); the Link header names the next page too. */
export async function GET(request: Request) {
  const cursor = new URL(request.url).searchParams.get("cursor");
  return serveAgent(request, { variant: `index.json${cursor === null ? "" : `.${encodeURIComponent(cursor)}`}`, media: "json" }, async ({ view, urls }) => {
    const titles = await phaseTitlesAt(view.commit);
    // Only the first page is kept per commit: a cursor is the client's input, and any string can be one.
    const page =
      cursor === null ? perView(view, `index.json ${urls.base}`, () => compactIndexJson(view, urls, titles)) : compactIndexJson(view, urls, titles, cursor);
    if (!page.ok) return { status: 400, error: page.error };
    // The Link is part of the answer, kept with its bytes (a header set on the Response after serveAgent is lost when they are reused).
    return { body: page.body, headers: page.next ? { Link: `<${page.next}>; rel="next"` } : undefined };
  });
}

export const OPTIONS = preflight;
