import { config } from "@/lib/env";
import { isAllowedHost, parseHostPort } from "@/lib/web/host-port";

/**
 * DNS-rebinding protection for the MCP endpoint: a browser page on another site can point its own
 * host name at this server, so a request is served only when its Host is this site's host and its
 * Origin, if it sends one, is this site's origin. With SITE_URL unset, loopback hosts and the hosts
 * ALLOWED_HOSTS names count as the site's own (a rebinding page's host name is in neither).
 * Forwarded headers are not trusted: a rebinding page can set them.
 */

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** Why the request is not from this site, or null when it is. */
export function foreignReason(
  headers: Headers,
  siteUrl: string | null = config().siteUrl,
  allowedHosts: readonly string[] | null = config().allowedHosts,
): string | null {
  const host = headers.get("host")?.toLowerCase() ?? "";
  const origin = headers.get("origin");
  if (siteUrl) {
    const site = new URL(siteUrl);
    if (host !== site.host.toLowerCase()) return `Host "${host}" is not this site's host (${site.host})`;
    if (origin !== null && origin.toLowerCase() !== site.origin.toLowerCase()) return `Origin "${origin}" is not this site's origin (${site.origin})`;
    return null;
  }
  const hostname = host.replace(/:\d+$/, "");
  const parsed = parseHostPort(host);
  const named = parsed !== null && allowedHosts !== null && isAllowedHost(parsed, allowedHosts);
  if (!LOOPBACK.has(hostname) && !named) {
    return `Host "${host}" is not a loopback host, and neither SITE_URL nor ALLOWED_HOSTS names it as this site's`;
  }
  if (origin !== null && !["http", "https"].some((s) => origin.toLowerCase() === `${s}://${host}`)) {
    return `Origin "${origin}" is not this site's origin (http://${host})`;
  }
  return null;
}
