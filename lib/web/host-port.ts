/**
 * What a Host header may hold (host[:port]), shared by the origin rule and the ALLOWED_HOSTS
 * setting so both read a host the same way. No imports: lib/env uses it while it validates.
 */

// One DNS label: letters, digits and inner hyphens, at most 63 characters.
const LABEL = "[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?";
const HOST_PORT = new RegExp(`^(${LABEL}(?:\\.${LABEL})*|\\[[0-9a-f:.]+\\])(?::(\\d{1,5}))?$`);

/**
 * A Host-style value (`name`, `name:port`, `1.2.3.4:port`, `[::1]:port`), lower-cased, or null
 * when it is not one: user info, paths, spaces, an empty or out-of-range port, a malformed IPv6.
 */
export function parseHostPort(value: string | null | undefined): string | null {
  const candidate = value?.trim().toLowerCase() ?? "";
  const match = HOST_PORT.exec(candidate);
  if (!match) return null;
  const [, hostname, port] = match;
  if (hostname!.length > 253) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  // The URL parser is the judge of IPv6 literals (and of the numeric IPv4 forms it normalises).
  if (!URL.canParse(`http://${candidate}/`)) return null;
  return candidate;
}

/** The name part of a host[:port] (an IPv6 literal keeps its brackets). */
function hostnameOf(host: string): string {
  return host.replace(/:\d+$/, "");
}

/**
 * Whether a parsed host[:port] is one of the allowed ones: an entry with a port matches only that
 * port, an entry without one matches its name on any port (a proxy may or may not pass the port on).
 */
export function isAllowedHost(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => entry === host || (!/:\d+$/.test(entry) && entry === hostnameOf(host)));
}
