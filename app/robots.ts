import type { MetadataRoute } from "next";
import { siteOrigin } from "@/lib/public/site-origin";

/** Crawlers may read the public archive and the agent formats; the studio and result permutations are not for them. */

export const dynamic = "force-dynamic";

export default async function robots(): Promise<MetadataRoute.Robots> {
  const origin = await siteOrigin();
  return {
    rules: [{ userAgent: "*", allow: "/", disallow: ["/studio", "/api/", "/search"] }],
    sitemap: `${origin}/sitemap.xml`,
    // No `Host:` line: it was Yandex's alone (since retired) and takes a host name, not the URL Next would write.
  };
}
