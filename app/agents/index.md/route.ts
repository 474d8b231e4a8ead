import { compactIndexMarkdown } from "@/lib/agents/compact-index";
import { preflight, serveAgent } from "@/lib/agents/http";
import { derived } from "@/lib/agents/memo";
import { withLlmsPointer } from "@/lib/agents/page-twins";

export const dynamic = "force-dynamic";

/** The compact index as Markdown, a page at a time (?cursor=…); the Link header names the next page. */
export async function GET(request: Request) {
  const cursor = new URL(request.url).searchParams.get("cursor");
  let next: string | null = null;
  const response = await serveAgent(request, { variant: `index.md${cursor === null ? "" : `.${encodeURIComponent(cursor)}`}`, media: "markdown" }, ({ view, urls }) => {
    // Only the first page is kept per commit: a cursor is the client's input, and any string can be one.
    const page = cursor === null ? derived(view, `index.md ${urls.base}`, () => compactIndexMarkdown(view, urls)) : compactIndexMarkdown(view, urls, cursor);
    if (!page.ok) return { status: 400, error: page.error };
    next = page.next;
    return { body: withLlmsPointer(page.body, urls) };
  });
  if (next) response.headers.append("Link", `<${next}>; rel="next"`);
  return response;
}

export const OPTIONS = preflight;
