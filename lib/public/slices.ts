import { getPublishedPhases } from "@/lib/content/phases";
import type { PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUS_LABEL, type Status } from "@/lib/notes/schema";
import { phaseTitle } from "@/lib/phases/schema";
import { phaseUrl, statusUrl, tagHasPage, tagUrl } from "@/lib/web/urls";
import { wholeArchive, type FeedSlice } from "./atom";
import { homeListing, statusParam } from "./listing";
import { phasePage, tagPage } from "./pages";

/**
 * The slices of the archive an agent or a feed reader can follow on its own: a tag, a phase, a
 * status. Each is chosen by the function its page uses (tagPage, phasePage, homeListing), so the
 * slice's feed (lib/public/feeds.ts) and its index (/tags/<tag>/llms.txt) hold exactly the notes
 * the page lists.
 */

/** A slice: its name ("Tag: sparse attention"), its notes, its page and its feed, as site paths. */
export type Slice = FeedSlice & { name: string };

/** A feed's address for a slice's page (the page's path, or a status); what a page links and the hub is pinged with. */
export const feedUrl = {
  archive: () => "/feed.xml",
  status: (status: Status) => `/feed.xml?status=${status}`,
  tag: (tag: string) => `${tagUrl(tag)}/feed.xml`,
  phase: (phase: string) => `${phaseUrl(phase)}/feed.xml`,
};

/** The feed's slice, or why there is none (404). */
export type Selected = { slice: Slice } | { missing: string };

export const archiveSlice = (view: PublishedView): Selected => ({ slice: { ...wholeArchive(view), name: "Every note" } });

/** The notes of one status, as the home page's status filter lists them. */
export function statusSlice(view: PublishedView, value: string | null): Selected {
  const { status, unknown } = statusParam(value);
  if (!status) return { missing: `no published status "${unknown ?? ""}"; a status's feed is /feed.xml?status= one of ${PUBLISHED_STATUSES.join(", ")}` };
  // A status alone: no phase is named, so no phase's title is needed.
  const listing = homeListing(view, { status }, {});
  const notes = listing.kind === "unknown-status" ? [] : listing.notes;
  return named(view, `Status: ${STATUS_LABEL[status]}`, { notes, page: statusUrl(status), feed: feedUrl.status(status) });
}

/** The notes with one tag, as /tags/<tag> lists them. */
export function tagSlice(view: PublishedView, segment: string): Selected {
  const found = tagPage(view, segment);
  if (!found || !tagHasPage(found.name)) return { missing: `no published note has the tag "${segment}"` };
  return named(view, `Tag: ${found.name}`, { notes: found.notes, page: tagUrl(found.name), feed: feedUrl.tag(found.name) });
}

/** The notes of one phase, as /phases/<slug> lists them. */
export async function phaseSlice(view: PublishedView, segment: string): Promise<Selected> {
  const { phases } = await getPublishedPhases(view);
  const found = phasePage(view, phases, segment);
  if (!found) return { missing: `no phase "${segment}" in the archive` };
  const { name } = found.phase.phase;
  // Named as its page is: by its title after a rename; its addresses keep the name's slug.
  return named(view, `Phase ${phaseTitle(found.phase.phase)}`, { notes: found.phase.notes, page: phaseUrl(name), feed: feedUrl.phase(name) });
}

const named = (view: PublishedView, name: string, slice: Omit<Slice, "name" | "title">): Selected => ({
  slice: { ...slice, name, title: `${view.site.title}: ${name}` },
});
