import { getPublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/public/last-change";
import { siteOrigin } from "@/lib/public/origin";
import { atomFeed } from "./atom";

/** The Atom feed: every published note, most recently changed first, read from the current published commit. */

export const dynamic = "force-dynamic";

// The feed of the current commit, kept until main moves (or the site is reached under another origin).
let last: { key: string; xml: string } | null = null;

export async function GET() {
  const [view, origin] = await Promise.all([getPublishedView(), siteOrigin()]);
  const key = `${view.commit} ${origin}`;
  if (last?.key !== key) last = { key, xml: atomFeed({ view, origin, changes: await lastChanges(view) }) };
  return new Response(last.xml, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "X-Content-Commit": view.commit,
      "Cache-Control": "no-cache",
    },
  });
}
