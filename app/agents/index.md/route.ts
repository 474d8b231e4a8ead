import { compactIndexMarkdown } from "@/lib/agents/compact-index";
import { preflight, serveAgent } from "@/lib/agents/http";
import { perView } from "@/lib/agents/per-view";
import { withLlmsPointer } from "@/lib/agents/page-twins";

export const dynamic = "force-dynamic";

/** The compact index as Markdown, a page at a time (?cursor=…); the Link header names the next page. */
export async function GET(request: Request) {
  const cursor = new URL(request.url).searchParams.get("cursor");
  return serveAgent(request, { variant: `index.md${cursor === null ? "" : `.${encodeURIComponent(cursor)}`}`, media: "markdown" }, ({ view, urls }) => {
    // Only the first page is kept per commit: a cursor is the client's input, and any string can be one.
    const page = cursor === null ? perView(view, `index.md ${urls.base}`, () => compactIndexMarkdown(view, urls)) : compactIndexMarkdown(view, urls, cursor);
    if (!page.ok) return { status: 400, error: page.error };
    // The Link is part of the answer, kept with its bytes (a header set on the Response after serveAgent is lost when they are reused).
    return { body: withLlmsPointer(page.body, urls), headers: page.next ? { Link: `<${page.next}>; rel="next"` } : undefined };
  });
}

export const OPTIONS = preflight;
