import { compactIndexJson } from "@/lib/agents/compact-index";
import { preflight, serveAgent } from "@/lib/agents/http";
import { derived } from "@/lib/agents/memo";

export const dynamic = "force-dynamic";

/** The compact index as JSON, a page at a time (?cursor=… from `next`); the Link header names the next page too. */
export async function GET(request: Request) {
  const cursor = new URL(request.url).searchParams.get("cursor");
  let next: string | null = null;
  const response = await serveAgent(request, { variant: `index.json${cursor === null ? "" : `.${encodeURIComponent(cursor)}`}`, media: "json" }, ({ view, urls }) => {
    // Only the first page is kept per commit: a cursor is the client's input, and any string can be one.
    const page = cursor === null ? derived(view, `index.json ${urls.base}`, () => compactIndexJson(view, urls)) : compactIndexJson(view, urls, cursor);
    if (!page.ok) return { status: 400, error: page.error };
    next = page.next;
    return { body: page.body };
  });
  if (next) response.headers.append("Link", `<${next}>; rel="next"`);
  return response;
}

export const OPTIONS = preflight;
