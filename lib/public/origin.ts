import { headers } from "next/headers";
import { config } from "@/lib/env";

/**
 * The archive's absolute origin for canonical links, OpenGraph, the feed and the sitemap: SITE_URL
 * when configured, otherwise the host this request came to (so a fresh checkout links to itself).
 */
export async function siteOrigin(): Promise<string> {
  const configured = config().siteUrl;
  if (configured) return configured;
  const h = await headers();
  const host = h.get("x-forwarded-host")?.split(",")[0]?.trim() || h.get("host") || "localhost:3000";
  const proto = h.get("x-forwarded-proto")?.split(",")[0]?.trim() || (/^(localhost|127\.|\[::1\])/.test(host) ? "http" : "https");
  const origin = `${proto}://${host}`;
  // A forged Host header must not produce a URL that is not one.
  return URL.canParse(origin) ? new URL(origin).origin : "http://localhost:3000";
}
