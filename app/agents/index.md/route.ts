import { compactIndexMarkdown } from "@/lib/agents/compact-index";
import { preflight, serveAgent } from "@/lib/agents/http";
import { derived } from "@/lib/agents/memo";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "index.md", media: "markdown" }, ({ view, urls }) => ({
    body: derived(view, `index.md ${urls.base}`, () => compactIndexMarkdown(view, urls)),
  }));
}

export const OPTIONS = preflight;
