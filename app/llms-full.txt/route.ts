import { preflight, serveAgent } from "@/lib/agents/http";
import { llmsFullTxt } from "@/lib/agents/llms-txt";
import { perView } from "@/lib/agents/per-view";
import { phaseTitlesAt } from "@/lib/content/phases";

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  return serveAgent(request, { variant: "llms-full.txt", media: "text" }, async ({ view, urls }) => {
    const titles = await phaseTitlesAt(view.commit);
    return { body: perView(view, `llms-full.txt ${urls.base}`, () => llmsFullTxt(view, urls, titles)) };
  });
}

export const OPTIONS = preflight;
