import { compactIndexJson } from "@/lib/agents/compact-index";
import { preflight, serveAgent } from "@/lib/agents/http";
import { derived } from "@/lib/agents/memo";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "index.json", media: "json" }, ({ view, urls }) => ({
    body: derived(view, `index.json ${urls.base}`, () => compactIndexJson(view, urls)),
  }));
}

export const OPTIONS = preflight;
