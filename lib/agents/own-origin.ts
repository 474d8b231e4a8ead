import { config } from "@/lib/env";

/**
 * DNS-rebinding protection for the MCP endpoint: a browser page on another site can point its own
 * host name at this server, so a request is served only when its Host is this site's host and its
 * Origin, if it sends one, is this site's origin. With SITE_URL unset, only loopback hosts count as
 * the site's own. Forwarded headers are not trusted: a rebinding page can set them.
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why the request is not from this site, or null when it is. */
export function foreignReason(headers: Headers, siteUrl: string | null = config().siteUrl): string | null {
  const host = headers.get("host")?.toLowerCase() ?? "";
  const origin = headers.get("origin");
  if (siteUrl) {
    const site = new URL(siteUrl);
    if (host !== site.host.toLowerCase()) return `Host "${host}" is not this site's host (${site.host})`;
    if (origin !== null && origin.toLowerCase() !== site.origin.toLowerCase()) return `Origin "${origin}" is not this site's origin (${site.origin})`;
    return null;
  }
  const hostname = host.replace(/:\d+$/, "");
  if (!LOOPBACK.has(hostname)) return `Host "${host}" is not a loopback host, and SITE_URL is not set to name this site`;
  if (origin !== null && !["http", "https"].some((s) => origin.toLowerCase() === `${s}://${host}`)) {
    return `Origin "${origin}" is not this site's origin (http://${host})`;
  }
  return null;
}
