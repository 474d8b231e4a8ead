import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/env";
import { addressBucket, clientAddress, forwardClientAddress, RECEIVED_CHAIN, trustedProxies } from "./client-address";

/**
 * The client address as authorize() sees it, after the proxy step moved the received
 * X-Forwarded-For aside and `next start` wrote the socket's address into X-Forwarded-For.
 */
function arriving(socket: string, sent?: string): Record<string, string> {
  const headers = new Headers(sent === undefined ? {} : { "x-forwarded-for": sent, [RECEIVED_CHAIN]: "10.0.0.99" });
  const forwarded = Object.fromEntries(forwardClientAddress(headers));
  // What Next does after the proxy: x-forwarded-for ??= socket.remoteAddress.
  forwarded["x-forwarded-for"] ??= socket;
  return forwarded;
}

describe("the client's address", () => {
  it("is the socket's, whatever X-Forwarded-For the client wrote, when no proxy is trusted", () => {
    expect(clientAddress(arriving("203.0.113.9", "198.51.100.1"))).toBe("203.0.113.9");
    expect(clientAddress(arriving("203.0.113.9", "198.51.100.1, 127.0.0.1"))).toBe("203.0.113.9");
    expect(clientAddress(arriving("::1"))).toBe("::1");
    expect(clientAddress({})).toBe("unknown");
  });

  it("a client cannot plant its own received chain", () => {
    const headers = arriving("127.0.0.1");
    expect(headers[RECEIVED_CHAIN]).toBeUndefined();
    expect(clientAddress(headers, trustedProxies(["127.0.0.1"]))).toBe("127.0.0.1");
  });

  it("steps through the hops only while they are proxies TRUST_PROXY lists", () => {
    const trusted = trustedProxies(["127.0.0.1", "10.0.0.0/8"]);
    // A proxy on loopback appended the client's address: believed.
    expect(clientAddress(arriving("127.0.0.1", "198.51.100.7"), trusted)).toBe("198.51.100.7");
    // The client wrote a forged hop before it; the proxies appended the real one and their own.
    expect(clientAddress(arriving("127.0.0.1", "1.2.3.4, 198.51.100.7, 10.1.2.3"), trusted)).toBe("198.51.100.7");
    // A direct connection from an untrusted address: its X-Forwarded-For is ignored.
    expect(clientAddress(arriving("203.0.113.9", "1.2.3.4"), trusted)).toBe("203.0.113.9");
    // An IPv4-mapped socket address is the same proxy.
    expect(clientAddress(arriving("::ffff:127.0.0.1", "198.51.100.7"), trusted)).toBe("198.51.100.7");
    // Garbage where an address should be: stop at the last trusted hop.
    expect(clientAddress(arriving("127.0.0.1", "not-an-address"), trusted)).toBe("127.0.0.1");
  });

  it("is counted as IPv4, or by the /64 of an IPv6 address", () => {
    expect(addressBucket("192.0.2.1")).toBe("192.0.2.1");
    expect(addressBucket("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(addressBucket("2001:db8:1:2::7")).toBe("2001:0db8:0001:0002::/64");
    expect(addressBucket("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:0db8:0001:0002::/64");
    expect(addressBucket("::1")).toBe("0000:0000:0000:0000::/64");
  });
});

describe("TRUST_PROXY", () => {
  it("takes addresses and CIDR ranges, and names a bad entry", () => {
    expect(parseConfig({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,::1" }).trustProxy).toEqual(["127.0.0.1", "10.0.0.0/8", "::1"]);
    expect(parseConfig({}).trustProxy).toEqual([]);
    expect(() => parseConfig({ TRUST_PROXY: "127.0.0.1,proxy.local,10.0.0.0/40" })).toThrow(
      /TRUST_PROXY: must be a comma-separated list of proxy addresses or CIDR ranges.*"proxy\.local" is not an IP address or CIDR range; "10\.0\.0\.0\/40" has a prefix length out of range/,
    );
  });
});
