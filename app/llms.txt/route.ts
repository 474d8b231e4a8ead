import { preflight, serveAgent } from "@/lib/agents/http";
import { llmsTxt } from "@/lib/agents/llms-txt";
import { perView } from "@/lib/agents/per-view";
import { getPublishedPhases } from "@/lib/content/phases";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "llms.txt", media: "text" }, async ({ view, urls }) => {
    const { phases } = await getPublishedPhases(view);
    return { body: perView(view, `llms.txt ${urls.base}`, () => llmsTxt(view, urls, phases)) };
  });
}

export const OPTIONS = preflight;
