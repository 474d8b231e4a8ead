import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/env";
import { hostRefusal } from "@/lib/http/host-guard";
import { isAllowedHost, parseHostPort } from "@/lib/web/host-port";
import { FALLBACK_ORIGIN, originVary, requestOrigin, warnIfOriginUnpinned } from "./origin";

/** The one origin rule, as a table: request headers (and SITE_URL) in, the origin every absolute URL starts with out. */

type Row = [label: string, headers: Record<string, string>, origin: string];

const unset: Row[] = [
  ["Host alone", { host: "notes.example.org" }, "http://notes.example.org"],
  ["Host with a port", { host: "notes.example.org:8080" }, "http://notes.example.org:8080"],
  ["Host is lower-cased", { host: "Notes.Example.ORG" }, "http://notes.example.org"],
  ["loopback with a port", { host: "127.0.0.1:3205" }, "http://127.0.0.1:3205"],
  ["localhost", { host: "localhost:3000" }, "http://localhost:3000"],
  ["IPv6 literal with a port", { host: "[::1]:3000" }, "http://[::1]:3000"],
  ["IPv6 literal without a port", { host: "[2001:db8::1]" }, "http://[2001:db8::1]"],
  ["X-Forwarded-Host wins over Host", { host: "app:3000", "x-forwarded-host": "notes.example.org" }, "http://notes.example.org"],
  [
    "X-Forwarded-Host list: the first (client-facing) entry",
    { host: "app:3000", "x-forwarded-host": "notes.example.org, proxy.internal" },
    "http://notes.example.org",
  ],
  ["X-Forwarded-Proto https", { host: "notes.example.org", "x-forwarded-proto": "https" }, "https://notes.example.org"],
  ["X-Forwarded-Proto list: the first entry", { host: "notes.example.org", "x-forwarded-proto": "https, http" }, "https://notes.example.org"],
  ["X-Forwarded-Proto in capitals", { host: "notes.example.org", "x-forwarded-proto": "HTTPS" }, "https://notes.example.org"],
  [
    "forwarded host and proto together",
    { host: "app:3000", "x-forwarded-host": "notes.example.org:8443", "x-forwarded-proto": "https" },
    "https://notes.example.org:8443",
  ],
  ["default port of the scheme is dropped (https)", { host: "notes.example.org:443", "x-forwarded-proto": "https" }, "https://notes.example.org"],
  ["default port of the scheme is dropped (http)", { host: "notes.example.org:80" }, "http://notes.example.org"],
  ["unknown X-Forwarded-Proto: plain http", { host: "notes.example.org", "x-forwarded-proto": "javascript" }, "http://notes.example.org"],
  ["garbage X-Forwarded-Host falls back to Host", { host: "notes.example.org", "x-forwarded-host": "evil.example/path" }, "http://notes.example.org"],
  ["empty X-Forwarded-Host falls back to Host", { host: "notes.example.org", "x-forwarded-host": "" }, "http://notes.example.org"],
  ["user info in Host", { host: "notes.example.org@evil.example" }, FALLBACK_ORIGIN],
  ["a path in Host", { host: "evil.example/notes" }, FALLBACK_ORIGIN],
  ["a space in Host", { host: "evil example" }, FALLBACK_ORIGIN],
  ["a quote and markup in Host", { host: '"><script>x</script>' }, FALLBACK_ORIGIN],
  ["port out of range", { host: "notes.example.org:99999" }, FALLBACK_ORIGIN],
  ["port zero", { host: "notes.example.org:0" }, FALLBACK_ORIGIN],
  ["empty port", { host: "notes.example.org:" }, FALLBACK_ORIGIN],
  ["malformed IPv6", { host: "[::g]:3000" }, FALLBACK_ORIGIN],
  ["a scheme in Host", { host: "https://evil.example" }, FALLBACK_ORIGIN],
  ["label ending in a hyphen", { host: "evil-.example" }, FALLBACK_ORIGIN],
  ["non-ASCII host", { host: "nötes.example.org" }, FALLBACK_ORIGIN],
  ["no Host at all", {}, FALLBACK_ORIGIN],
];

describe("requestOrigin with SITE_URL unset", () => {
  it.each(unset)("%s", (_label, headers, origin) => {
    expect(requestOrigin(new Headers(headers), null)).toBe(origin);
  });
});

describe("requestOrigin with SITE_URL set", () => {
  const site = "https://notes.example.org";
  it.each([
    ["a normal request", { host: "notes.example.org" }],
    ["a forged Host", { host: "evil.example" }],
    ["a forged X-Forwarded-Host and proto", { host: "notes.example.org", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }],
    ["garbage", { host: "<>" }],
  ])("%s: SITE_URL wins", (_label, headers) => {
    expect(requestOrigin(new Headers(headers), site)).toBe(site);
  });

  it("reads SITE_URL from the configuration as lib/env parsed it", () => {
    const { siteUrl } = parseConfig({ SITE_URL: "https://notes.example.org/" });
    expect(requestOrigin(new Headers({ host: "evil.example" }), siteUrl)).toBe("https://notes.example.org");
  });

  it("asks shared caches to vary on the origin headers only when SITE_URL is unset", () => {
    expect(originVary(null)).toBe("Host, X-Forwarded-Host, X-Forwarded-Proto");
    expect(originVary(site)).toBeNull();
  });
});

describe("ALLOWED_HOSTS", () => {
  it("is read as a list of host[:port], lower-cased", () => {
    expect(parseConfig({ ALLOWED_HOSTS: "Notes.Example.org, localhost:3000 ,[::1]" }).allowedHosts).toEqual(["notes.example.org", "localhost:3000", "[::1]"]);
    expect(parseConfig({}).allowedHosts).toBeNull();
  });

  it("names each entry that is not a host, and refuses an empty list", () => {
    expect(() => parseConfig({ ALLOWED_HOSTS: "notes.example.org,https://evil.example,a b" })).toThrow(
      /ALLOWED_HOSTS: must be a comma-separated list of host or host:port.*"https:\/\/evil.example", "a b"/,
    );
    expect(() => parseConfig({ ALLOWED_HOSTS: " , " })).toThrow(/ALLOWED_HOSTS: must name at least one host/);
  });

  it("matches a port-less entry on any port and a ported entry on its port only", () => {
    expect(isAllowedHost("notes.example.org:8080", ["notes.example.org"])).toBe(true);
    expect(isAllowedHost("notes.example.org", ["notes.example.org:8080"])).toBe(false);
    expect(isAllowedHost("127.0.0.1:3205", ["127.0.0.1:3205"])).toBe(true);
    expect(isAllowedHost("[::1]:3000", ["[::1]"])).toBe(true);
    expect(isAllowedHost("notes.example.org.evil.example", ["notes.example.org"])).toBe(false);
  });

  it("answers 421 to any other host, to a forged X-Forwarded-Host and to a host that is not one", async () => {
    const allowed = ["notes.example.org", "127.0.0.1:3205"];
    const status = (headers: Record<string, string>) => hostRefusal(new Headers(headers), allowed)?.status ?? "served";
    expect(status({ host: "notes.example.org" })).toBe("served");
    expect(status({ host: "127.0.0.1:3205" })).toBe("served");
    expect(status({ host: "app:3000", "x-forwarded-host": "notes.example.org" })).toBe("served");
    expect(status({ host: "evil.example" })).toBe(421);
    expect(status({ host: "127.0.0.1:9999" })).toBe(421);
    expect(status({ host: "notes.example.org", "x-forwarded-host": "evil.example" })).toBe(421);
    expect(status({ host: "<garbage>" })).toBe(421);
    expect(hostRefusal(new Headers({ host: "evil.example" }), null)).toBeNull();
    const refusal = hostRefusal(new Headers({ host: 'evil.example" <b>' }), allowed)!;
    expect(await refusal.text()).toContain(String.raw`host "evil.example\" <b>"`);
  });
});

describe("parseHostPort", () => {
  it("keeps a well-formed host and refuses a 254-character name", () => {
    expect(parseHostPort(" notes.example.org:3000 ")).toBe("notes.example.org:3000");
    expect(parseHostPort(`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(61)}`)).not.toBeNull();
    expect(parseHostPort(`${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(62)}`)).toBeNull();
  });
});

describe("the start-up warning", () => {
  it("is logged once per process, only in production and only without SITE_URL", () => {
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    expect(warnIfOriginUnpinned({ nodeEnv: "development", siteUrl: null, allowedHosts: null }, log)).toBe(false);
    expect(warnIfOriginUnpinned({ nodeEnv: "production", siteUrl: "https://notes.example.org", allowedHosts: null }, log)).toBe(false);
    expect(warnIfOriginUnpinned({ nodeEnv: "production", siteUrl: null, allowedHosts: null }, log)).toBe(true);
    expect(warnIfOriginUnpinned({ nodeEnv: "production", siteUrl: null, allowedHosts: null }, log)).toBe(false);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/SITE_URL is not set.*Set SITE_URL.*or ALLOWED_HOSTS/);
  });
});
