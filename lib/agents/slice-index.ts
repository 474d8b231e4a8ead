import { createHash } from "node:crypto";
import { getPublishedPhases } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import type { Selected } from "@/lib/public/slices";
import { preflight, serveAgent } from "./http";
import { llmsTxt } from "./llms-txt";
import { perView } from "./per-view";

/**
 * /tags/<tag>/llms.txt and /phases/<slug>/llms.txt: the archive's llms.txt (the same builder) for
 * one slice, chosen as its page chooses it (lib/public/slices.ts), for an agent that wants only
 * that slice. Served like every agent format (commit ETag, 304, CORS); a slice the archive does not
 * have is a 404 in words.
 */
export function serveSliceIndex(request: Request, kind: "tag" | "phase", select: (view: PublishedView) => Selected | Promise<Selected>) {
  // The path names the slice in the tag (hashed: a tag is any text, a header is Latin-1).
  const hash = createHash("sha256").update(new URL(request.url).pathname).digest("hex").slice(0, 12);
  return serveAgent(request, { variant: `llms.txt.${kind}.${hash}`, media: "text" }, async ({ view, urls }) => {
    const selected = await select(view);
    if ("missing" in selected) return { status: 404, error: selected.missing };
    const { slice } = selected;
    const { phases } = await getPublishedPhases(view);
    return {
      body: perView(view, `llms.txt ${slice.page} ${urls.base}`, () =>
        llmsTxt(view, urls, phases, { name: slice.name, notes: slice.notes, twin: `${urls.base}${slice.page}.md`, feed: `${urls.base}${slice.feed}` }),
      ),
    };
  });
}

export const slicePreflight = preflight;
