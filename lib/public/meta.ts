import type { Metadata } from "next";
import { twinUrlOf } from "@/lib/agents/twin-paths";

/** Title, description, canonical URL and OpenGraph for one public page, in one shape. */
export function pageMetadata({
  title,
  description,
  path,
  type = "website",
  absoluteTitle = false,
  feed,
}: {
  title: string;
  description: string;
  path: string;
  type?: "website" | "article";
  absoluteTitle?: boolean;
  /** The Atom feed of the page's own notes (a tag, a phase, a status), named before the archive's. */
  feed?: { url: string; title: string };
}): Metadata {
  const feeds = [...(feed ? [feed] : []), { url: "/feed.xml", title: "Every note" }];
  return {
    title: absoluteTitle ? { absolute: title } : title,
    description,
    alternates: { canonical: path, types: { "application/atom+xml": feeds, ...markdownTwin(path) } },
    openGraph: { title, description, url: path, type, siteName: "Field Notes" },
    twitter: { card: "summary", title, description },
  };
}

/** The page's Markdown twin as an alternate (the same URL the proxy's Link header names). */
function markdownTwin(path: string): Record<string, string> {
  const at = path.indexOf("?");
  const twin = at < 0 ? twinUrlOf(path, "") : twinUrlOf(path.slice(0, at), path.slice(at));
  return twin ? { "text/markdown": twin } : {};
}
