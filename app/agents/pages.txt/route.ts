import { preflight, serveAgent } from "@/lib/agents/http";
import { pagesTxt } from "@/lib/agents/llms-txt";
import { perView } from "@/lib/agents/per-view";
import { getPublishedPhases } from "@/lib/content/phases";
import { tagHasPage, tagUrl } from "@/lib/web/urls";

export const dynamic = "force-dynamic";

/** Every public page's Markdown twin, in the llmstxt.org format (linked from /llms.txt's Optional section). */
export function GET(request: Request) {
  return serveAgent(request, { variant: "pages.txt", media: "text" }, async ({ view, urls }) => {
    const { phases } = await getPublishedPhases(view);
    // Each tag page once (tags that differ only in case or punctuation share a page); a tag of dots alone has none.
    const tags = [...new Map(view.notes.flatMap((n) => n.tags.filter(tagHasPage).map((t) => [tagUrl(t), t] as const))).values()];
    return { body: perView(view, `pages.txt ${urls.base}`, () => pagesTxt(view, urls, phases, tags)) };
  });
}

export const OPTIONS = preflight;
