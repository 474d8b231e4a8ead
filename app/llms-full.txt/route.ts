import { preflight, serveAgent } from "@/lib/agents/http";
import { llmsFullTxt } from "@/lib/agents/llms-txt";
import { derived } from "@/lib/agents/memo";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "llms-full.txt", media: "text" }, ({ view, urls }) => ({
    body: derived(view, `llms-full.txt ${urls.base}`, () => llmsFullTxt(view, urls)),
  }));
}

export const OPTIONS = preflight;
