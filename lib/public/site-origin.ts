import { headers } from "next/headers";
import { requestOrigin } from "@/lib/origin";

/**
 * The site's origin in a server component or metadata route (canonical links, OpenGraph, the
 * sitemap, robots.txt): the one rule of lib/origin.ts, read through next/headers.
 */
export async function siteOrigin(): Promise<string> {
  return requestOrigin(await headers());
}
