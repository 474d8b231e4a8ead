import { BlockList, isIP } from "node:net";

/**
 * Which address a request comes from, for the per-address sign-in limit.
 *
 * X-Forwarded-For is whatever the client wrote unless a proxy we trust wrote it, and `next start`
 * keeps a client's header as it came (it only fills X-Forwarded-For from the socket when the header
 * is absent). So the proxy step (proxy.ts) moves the received header aside, into RECEIVED_CHAIN,
 * and removes X-Forwarded-For; Next then sets X-Forwarded-For to the socket's address before the
 * route runs. clientAddress starts from that socket address and steps left through the received
 * chain only while the hop it stands on is a proxy TRUST_PROXY lists: the usual "trust only what
 * your own proxies appended" rule. With TRUST_PROXY unset, the socket address is the client.
 */

/** Where the proxy keeps the X-Forwarded-For the request arrived with. Any copy a client sends is replaced. */
export const RECEIVED_CHAIN = "x-field-notes-received-forwarded-for";

/** The proxy's half: move the received X-Forwarded-For aside so Next writes the socket's address. */
export function forwardClientAddress(headers: Headers): Headers {
  const received = headers.get("x-forwarded-for");
  headers.delete(RECEIVED_CHAIN);
  headers.delete("x-forwarded-for");
  if (received) headers.set(RECEIVED_CHAIN, received);
  return headers;
}

type HeaderBag = Record<string, string | string[] | undefined>;

/** The route's half: the client's address, from the socket and the proxies TRUST_PROXY names. */
export function clientAddress(headers: HeaderBag, trusted: TrustedProxies | null = null): string {
  const socket = hops(headers["x-forwarded-for"]).pop();
  let address = socket && isIP(socket) ? socket : null;
  if (!address) return "unknown";
  const chain = hops(headers[RECEIVED_CHAIN]);
  while (trusted?.has(address) && chain.length) {
    const next = chain.pop()!;
    // A hop that is not an address was not written by a proxy we trust: stop at the last one that was.
    if (!isIP(next)) break;
    address = next;
  }
  return address;
}

/**
 * The key an address is counted under: an IPv4 address as it is (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address by its /64, since one host usually holds a whole /64 and could otherwise
 * rotate through 2^64 fresh addresses.
 */
export function addressBucket(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
}

export type TrustedProxies = { has(address: string): boolean };

/** TRUST_PROXY's entries (addresses or CIDR ranges, already validated by lib/env) as a lookup. */
export function trustedProxies(entries: readonly string[]): TrustedProxies | null {
  if (!entries.length) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [ip, bits] = entry.split("/");
    const family = isIP(ip!) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(ip!, family);
    else list.addSubnet(ip!, Number(bits), family);
  }
  return {
    has(address) {
      const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
      const ip = mapped ? mapped[1]! : address;
      return list.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
    },
  };
}

/** Why a TRUST_PROXY entry is not an address or CIDR range, or null when it is one. */
export function trustEntryProblem(entry: string): string | null {
  const [ip, bits, extra] = entry.split("/");
  const family = isIP(ip ?? "");
  if (!family || extra !== undefined) return `"${entry}" is not an IP address or CIDR range`;
  if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32))) return `"${entry}" has a prefix length out of range`;
  return null;
}

function hops(value: string | string[] | undefined): string[] {
  const text = Array.isArray(value) ? value.join(",") : (value ?? "");
  return text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function expandIPv6(address: string): string[] {
  const [head = "", tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  return [...left, ...Array<string>(Math.max(0, missing)).fill("0"), ...right].map((g) => g.padStart(4, "0"));
}
