import { createHash } from "node:crypto";
import { config } from "@/lib/env";
import { parseHostPort } from "@/lib/web/host-port";

export { parseHostPort };

/**
 * The site's own origin, the one rule behind every absolute URL the app writes (canonical links,
 * OpenGraph, the feed, the sitemap, robots.txt, llms.txt, the agent formats, MCP): SITE_URL when it
 * is configured; otherwise the host the request names, so a fresh checkout links to itself under
 * whatever address it was reached by.
 *
 * Without SITE_URL the host comes from X-Forwarded-Host (its first entry: the one the client used,
 * before any proxy appended its own), else Host; the scheme from X-Forwarded-Proto (first entry),
 * else http, because `next start` itself only speaks plain HTTP and TLS is always a proxy's job.
 * A header is believed only when it is a well-formed host[:port] (or scheme): anything else falls
 * back to the next source, and a request with no usable host at all gets http://localhost, never a
 * URL built from the garbage. Caches of documents holding these URLs key on the origin too
 * (see docs/decisions/origin-from-the-request.md), and ALLOWED_HOSTS can refuse other hosts.
 *
 * This module has no Next.js imports, so route handlers, the proxy and tests share it; the adapter
 * for server components (next/headers) is lib/public/site-origin.ts.
 */

/** What this module reads from a request: Headers, or next/headers' ReadonlyHeaders. */
export type HeaderSource = { get(name: string): string | null };

/** The origin a request gets when it names no usable host. It points nowhere but this machine. */
export const FALLBACK_ORIGIN = "http://localhost";

/** The request headers that decide the origin when SITE_URL is unset (for Vary). */
export const ORIGIN_HEADERS = ["Host", "X-Forwarded-Host", "X-Forwarded-Proto"] as const;

/** The first entry of a comma-separated forwarding header. */
function firstEntry(value: string | null): string | null {
  return value === null ? null : (value.split(",")[0]?.trim() ?? null);
}

/**
 * The host the request was addressed to, as the origin rule reads it: the first entry of
 * X-Forwarded-Host when that is a host[:port], else Host when it is one, else null.
 */
export function requestHost(headers: HeaderSource): string | null {
  return parseHostPort(firstEntry(headers.get("x-forwarded-host"))) ?? parseHostPort(headers.get("host"));
}

/** The scheme the client used: X-Forwarded-Proto's first entry when it is http or https, else http. */
function requestScheme(headers: HeaderSource): "http" | "https" {
  const proto = firstEntry(headers.get("x-forwarded-proto"))?.toLowerCase();
  return proto === "https" ? "https" : "http";
}

/**
 * The site's origin for a request with these headers (pure: headers and configuration in, origin
 * out, no trailing slash). `siteUrl` defaults to the configured SITE_URL, which always wins (as an
 * origin: the app is served at the root of its host, so a path in SITE_URL would not be its own).
 */
export function requestOrigin(headers: HeaderSource, siteUrl: string | null = config().siteUrl): string {
  if (siteUrl) return new URL(siteUrl).origin;
  const host = requestHost(headers);
  if (!host) return FALLBACK_ORIGIN;
  // new URL(…).origin drops a default port (:80 for http, :443 for https) and normalises IPv4.
  return new URL(`${requestScheme(headers)}://${host}`).origin;
}

/** requestOrigin for a route handler's Request. */
export function originFor(request: Request): string {
  return requestOrigin(request.headers);
}

/**
 * The Vary value a response built from the request's origin must carry so a shared cache keys it
 * by the headers that chose that origin; null when SITE_URL fixes the origin for everyone.
 */
export function originVary(siteUrl: string | null = config().siteUrl): string | null {
  return siteUrl ? null : ORIGIN_HEADERS.join(", ");
}

/**
 * The ETag of a document built from one content commit for one origin. Such documents hold
 * absolute URLs, so with SITE_URL unset two hosts get two bodies and must get two tags: a cache
 * (the client's, a shared one, or the app's own) that revalidates with the tag of one host's answer
 * must never be told "unchanged" for another's. The origin is hashed so a forged host is not echoed.
 */
export function etagFor(commit: string, variant: string, origin: string): string {
  return `"${commit}.${variant}.${createHash("sha256").update(origin).digest("hex").slice(0, 12)}"`;
}

let warned = false;

/**
 * Says once per process, at start, that a production server without SITE_URL builds its absolute
 * URLs from each request's Host: correct behind an honest proxy, but only ALLOWED_HOSTS stops a
 * client from naming any host it likes. True when it warned.
 */
export function warnIfOriginUnpinned(
  env: { nodeEnv: string | undefined; siteUrl: string | null; allowedHosts: readonly string[] | null },
  log: (message: string) => void = console.warn,
): boolean {
  if (warned || env.nodeEnv !== "production" || env.siteUrl) return false;
  warned = true;
  log(
    "SITE_URL is not set: absolute URLs (feed, sitemap, llms.txt, agent formats, canonical links) follow each request's " +
      "Host / X-Forwarded-Host. " +
      (env.allowedHosts
        ? `Only ALLOWED_HOSTS (${env.allowedHosts.join(", ")}) are answered.`
        : "Set SITE_URL to the public address, or ALLOWED_HOSTS to the hosts this site answers for."),
  );
  return true;
}
