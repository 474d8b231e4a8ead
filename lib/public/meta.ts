import type { Metadata } from "next";

/** Title, description, canonical URL and OpenGraph for one public page, in one shape. */
export function pageMetadata({ title, description, path, type = "website", absoluteTitle = false }: {
  title: string;
  description: string;
  path: string;
  type?: "website" | "article";
  absoluteTitle?: boolean;
}): Metadata {
  return {
    title: absoluteTitle ? { absolute: title } : title,
    description,
    alternates: { canonical: path, types: { "application/atom+xml": "/feed.xml" } },
    openGraph: { title, description, url: path, type, siteName: "Field Notes" },
    twitter: { card: "summary", title, description },
  };
}
