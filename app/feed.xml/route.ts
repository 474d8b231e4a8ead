import { etagMatches } from "@/lib/agents/http";
import { getPublishedView } from "@/lib/content/published";
import { etagFor, originFor, originVary } from "@/lib/http/origin";
import { lastChanges } from "@/lib/content/last-change";
import { atomFeed } from "./atom";

/** The Atom feed: every published note, most recently changed first, read from the current published commit. */

export const dynamic = "force-dynamic";

// Feeds of the current commit, one per origin the site was reached under (its links are absolute),
// kept until main moves. Bounded, oldest first out, so a stream of forged hosts cannot grow it.
const FEEDS_KEPT = 8;
// Readers arriving while it is built share the one build (its sections render off this thread).
const feeds = new Map<string, Promise<string>>();

export async function GET(request: Request) {
  const view = await getPublishedView();
  const origin = originFor(request);
  const etag = etagFor(view.commit, "feed.xml", origin);
  const vary = originVary();
  const headers: Record<string, string> = {
    "Content-Type": "application/atom+xml; charset=utf-8",
    "X-Content-Commit": view.commit,
    "Cache-Control": "no-cache",
    ETag: etag,
    ...(vary ? { Vary: vary } : {}),
  };
  // Feed readers poll: answer their conditional GET before building anything.
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  let xml = feeds.get(etag);
  if (xml === undefined) {
    xml = lastChanges(view).then((changes) => atomFeed({ view, origin, changes }));
    for (const key of feeds.keys()) if (!key.startsWith(`"${view.commit}.`) || feeds.size >= FEEDS_KEPT) feeds.delete(key);
    feeds.set(etag, xml);
    // A failed build is not kept: the next reader tries again.
    xml.catch(() => feeds.get(etag) === xml && feeds.delete(etag));
  }
  return new Response(await xml, { headers });
}
