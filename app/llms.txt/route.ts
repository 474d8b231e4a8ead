import { preflight, serveAgent } from "@/lib/agents/http";
import { llmsTxt } from "@/lib/agents/llms-txt";
import { derived } from "@/lib/agents/memo";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "llms.txt", media: "text" }, ({ view, urls }) => ({
    body: derived(view, `llms.txt ${urls.base}`, () => llmsTxt(view, urls)),
  }));
}

export const OPTIONS = preflight;
