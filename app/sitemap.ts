import type { MetadataRoute } from "next";
import { getPublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { siteOrigin } from "@/lib/public/site-origin";
import { historyUrl, noteUrl, phaseUrl, tagHasPage, tagUrl } from "@/lib/web/urls";

/** Every public page of the current published commit: home, each note and its history, each tag and phase. */

export const dynamic = "force-dynamic";

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [view, origin] = await Promise.all([getPublishedView(), siteOrigin()]);
  const changes = await lastChanges(view);
  const newest = [...changes.values()]
    .map((c) => c.date)
    .sort()
    .at(-1);
  const at = (iso: string | undefined) => (iso ? new Date(iso) : undefined);
  // A tag of dots alone has no page (/tags/.. is /): content:check reports it, the sitemap leaves it out.
  const tags = new Map(view.notes.flatMap((n) => n.tags.filter(tagHasPage).map((t) => [tagUrl(t), t] as const)));
  const phases = new Set(view.notes.map((n) => phaseUrl(n.phase)));
  return [
    { url: `${origin}/`, lastModified: at(newest), changeFrequency: "weekly", priority: 1 },
    ...view.notes.flatMap((n) => [
      { url: `${origin}${noteUrl(n.id)}`, lastModified: at(changes.get(n.id)?.date), priority: 0.8 },
      { url: `${origin}${historyUrl(n.id)}`, lastModified: at(changes.get(n.id)?.date), priority: 0.3 },
    ]),
    ...[...tags.keys()].map((path) => ({ url: `${origin}${path}`, priority: 0.4 })),
    ...[...phases].map((path) => ({ url: `${origin}${path}`, priority: 0.4 })),
  ];
}
