import { describe, expect, it } from "vitest";
import { crossSiteVerdict } from "./cross-site";

const SITE = "https://notes.example.org";
const SESSION = ["next-auth.session-token"];

function verdict(method: string, headers: Record<string, string>, options: { path?: string; cookies?: string[]; siteUrl?: string | null } = {}) {
  return crossSiteVerdict(
    { method, pathname: options.path ?? "/api/studio/notes", headers: new Headers(headers), cookieNames: options.cookies ?? SESSION },
    options.siteUrl === undefined ? SITE : options.siteUrl,
  );
}

describe("cross-site writes", () => {
  it("refuse a write with the session cookie from any other origin, including the same host on another port", () => {
    expect(verdict("POST", { origin: "https://evil.example" })).toEqual({ ok: false, why: 'Origin "https://evil.example" is not https://notes.example.org' });
    expect(verdict("POST", { origin: "https://notes.example.org:8443" }).ok).toBe(false);
    expect(verdict("PUT", { origin: "https://blog.example.org" }).ok).toBe(false);
    expect(verdict("DELETE", { origin: "http://notes.example.org" }).ok).toBe(false);
    expect(verdict("PATCH", { origin: "null" }).ok).toBe(false);
    // A chunked or __Secure- session cookie is a session cookie too.
    expect(verdict("POST", { origin: "https://evil.example" }, { cookies: ["__Secure-next-auth.session-token.0"] }).ok).toBe(false);
  });

  it("let the site's own pages write", () => {
    expect(verdict("POST", { origin: SITE })).toEqual({ ok: true });
    expect(verdict("PUT", { "sec-fetch-site": "same-origin" })).toEqual({ ok: true });
    expect(verdict("PUT", { referer: `${SITE}/studio/notes/AFN-022` })).toEqual({ ok: true });
  });

  it("without Origin, judge by Sec-Fetch-Site, then by Referer", () => {
    expect(verdict("POST", { "sec-fetch-site": "same-site" }).ok).toBe(false);
    expect(verdict("POST", { "sec-fetch-site": "cross-site", referer: `${SITE}/` }).ok).toBe(false);
    expect(verdict("POST", { referer: "https://evil.example/page" }).ok).toBe(false);
    // Nothing a browser would send: not a page's request, so not forgery.
    expect(verdict("POST", {})).toEqual({ ok: true });
  });

  it("leave reads, requests without a session cookie and bearer-token requests alone", () => {
    expect(verdict("GET", { origin: "https://evil.example" })).toEqual({ ok: true });
    expect(verdict("POST", { origin: "https://evil.example" }, { cookies: ["next-auth.csrf-token", "theme"] })).toEqual({ ok: true });
    expect(verdict("POST", { origin: "https://evil.example", authorization: "Bearer abc" })).toEqual({ ok: true });
  });

  it("check next-auth's own endpoints even without a session (signing a visitor in to another account is forgery too)", () => {
    expect(verdict("POST", { origin: "https://evil.example" }, { path: "/api/auth/callback/credentials", cookies: [] }).ok).toBe(false);
    expect(verdict("POST", { origin: SITE }, { path: "/api/auth/callback/credentials", cookies: [] })).toEqual({ ok: true });
  });

  it("without SITE_URL, take the site's origin from the request's own host", () => {
    const headers = { host: "127.0.0.1:3000" };
    expect(verdict("POST", { ...headers, origin: "http://127.0.0.1:3000" }, { siteUrl: null })).toEqual({ ok: true });
    expect(verdict("POST", { ...headers, origin: "http://127.0.0.1:4000" }, { siteUrl: null }).ok).toBe(false);
    expect(verdict("POST", { host: "notes.example.org", "x-forwarded-proto": "https", origin: SITE }, { siteUrl: null })).toEqual({ ok: true });
  });
});
