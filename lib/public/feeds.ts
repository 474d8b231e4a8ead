import { createHash } from "node:crypto";
import { etagMatches } from "@/lib/agents/http";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { phaseTitlesAt } from "@/lib/content/phases";
import { config } from "@/lib/env";
import { readSide } from "@/lib/read-model/read-side";
import { etagFor, originFor, originVary } from "@/lib/origin";
import { atomFeed } from "./atom";
import type { Selected } from "./slices";

/**
 * Every Atom feed of the archive: the whole archive (/feed.xml), one status (/feed.xml?status=…,
 * the address of the home page's status filter with feed.xml for /), one tag
 * (/tags/<tag>/feed.xml) and one phase (/phases/<slug>/feed.xml). A slice holds the notes its page
 * lists, chosen by the page's own function (tagPage, phasePage, homeListing), and is written by the
 * one Atom writer (./atom.ts) with its escaping rules.
 */

// Feeds of the current commit, per slice and origin the site was reached under (its links are
// absolute), kept until main moves. Bounded, oldest first out, so a stream of forged hosts or
// slices cannot grow it.
const FEEDS_KEPT = 16;
// Readers arriving while it is built share the one build (its sections render off this thread).
const kept = () => (readSide().feeds ??= new Map<string, Promise<string>>());

/**
 * The one way a feed route answers: a 304 for a reader that has this commit's feed, the slice's
 * Atom document (built once per commit, slice and origin), or a 404 in words for a slice the
 * archive does not have.
 */
export async function serveFeed(request: Request, select: (view: PublishedView) => Selected | Promise<Selected>): Promise<Response> {
  const view = await getPublishedView();
  const selected = await select(view);
  if ("missing" in selected) {
    return new Response(`Not found: ${selected.missing}.\n`, {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache", "X-Content-Commit": view.commit },
    });
  }
  const { slice } = selected;
  const origin = originFor(request);
  // The slice's feed path names it in the tag (hashed: a tag is any text); the hub is part of the body.
  const hub = config().websubHub;
  const etag = etagFor(
    view.commit,
    `feed.${createHash("sha256")
      .update(`${slice.feed} ${hub ?? ""}`)
      .digest("hex")
      .slice(0, 12)}`,
    origin,
  );
  const vary = originVary();
  const headers: Record<string, string> = {
    "Content-Type": "application/atom+xml; charset=utf-8",
    "X-Content-Commit": view.commit,
    "Cache-Control": "no-cache",
    ETag: etag,
    // WebSub (section 4): the hub and the topic in headers too, for subscribers that read no XML first.
    ...(hub ? { Link: `<${hub}>; rel="hub", <${origin}${slice.feed}>; rel="self"` } : {}),
    ...(vary ? { Vary: vary } : {}),
  };
  // Feed readers poll: answer their conditional GET before building anything.
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  const feeds = kept();
  let xml = feeds.get(etag);
  if (xml === undefined) {
    xml = Promise.all([lastChanges(view), phaseTitlesAt(view.commit)]).then(([changes, titles]) => atomFeed({ view, origin, changes, titles, slice, hub }));
    for (const key of feeds.keys()) if (!key.startsWith(`"${view.commit}.`) || feeds.size >= FEEDS_KEPT) feeds.delete(key);
    feeds.set(etag, xml);
    // A failed build is not kept: the next reader tries again.
    xml.catch(() => feeds.get(etag) === xml && feeds.delete(etag));
  }
  return new Response(await xml, { headers });
}
