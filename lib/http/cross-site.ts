import type { NextRequest } from "next/server";
import { config } from "@/lib/env";
import { requestOrigin } from "@/lib/origin";

/**
 * Cross-site request forgery. A browser attaches the session cookie to a request that another page
 * starts (a form, or `fetch(…, {credentials: "include", mode: "no-cors"})`), and SameSite=Lax does
 * not stop a page on the same site (another port, a sibling subdomain). So a state-changing request
 * that carries a session cookie must come from this site's own origin:
 *
 * - Origin, when present, decides (every current browser sends it on POST, PUT, PATCH and DELETE;
 *   "null", from a sandboxed frame or a no-referrer page, is not ours);
 * - else Sec-Fetch-Site: only "same-origin" (or "none", a request the user typed) passes;
 * - else Referer's origin;
 * - with none of the three the request does not come from a browser page (curl, a script holding
 *   its own cookie), which is not forgery, and passes.
 *
 * A request with an Authorization header is never checked: the API then ignores the cookie, and no
 * page can add that header to another origin's request without a CORS preflight this site never
 * grants. next-auth's own POSTs (/api/auth/*: sign-in, sign-out) are checked whether or not a
 * session cookie is sent, since signing a visitor in to the attacker's account is forgery too.
 */

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
// next-auth 4's session cookie, plain on http and __Secure- on https, split into .0, .1 … when large.
const SESSION_COOKIE = /^(?:__Secure-)?next-auth\.session-token(?:\.\d+)?$/;

export type CrossSiteVerdict = { ok: true } | { ok: false; why: string };

/** Whether a request may go on, decided from its method, path and headers alone. */
export function crossSiteVerdict(
  input: { method: string; pathname: string; headers: Headers; cookieNames: string[] },
  siteUrl: string | null,
): CrossSiteVerdict {
  const { method, pathname, headers, cookieNames } = input;
  if (!WRITES.has(method.toUpperCase())) return { ok: true };
  if (headers.has("authorization")) return { ok: true };
  const authEndpoint = pathname === "/api/auth" || pathname.startsWith("/api/auth/");
  if (!authEndpoint && !cookieNames.some((name) => SESSION_COOKIE.test(name))) return { ok: true };

  // SITE_URL may carry a path; an Origin header never does.
  const own = new URL(requestOrigin(headers, siteUrl)).origin;
  const origin = headers.get("origin");
  if (origin !== null) {
    return originOf(origin) === own ? { ok: true } : { ok: false, why: `Origin ${JSON.stringify(origin.slice(0, 200))} is not ${own}` };
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null) {
    return site === "same-origin" || site === "none" ? { ok: true } : { ok: false, why: `Sec-Fetch-Site is ${JSON.stringify(site.slice(0, 40))}` };
  }
  const referer = headers.get("referer");
  if (referer !== null) {
    return originOf(referer) === own ? { ok: true } : { ok: false, why: `Referer is not on ${own}` };
  }
  return { ok: true };
}

/** The origin of an absolute http(s) URL (an Origin or Referer header), or null when it is not one. */
function originOf(value: string): string | null {
  if (value === "null" || !URL.canParse(value)) return null;
  const url = new URL(value);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
}

/**
 * Refuses a state-changing request that rides on a session cookie from another origin (CSRF), with
 * a 403 that says why and a log line. Null when the request may go on.
 */
export function refuseCrossSiteWrite(request: NextRequest): Response | null {
  const verdict = crossSiteVerdict(
    { method: request.method, pathname: request.nextUrl.pathname, headers: request.headers, cookieNames: request.cookies.getAll().map((c) => c.name) },
    config().siteUrl,
  );
  if (verdict.ok) return null;
  console.warn(`cross-site write refused: ${request.method} ${request.nextUrl.pathname}: ${verdict.why}`);
  const message = `a ${request.method} with this site's session cookie must come from this site's own pages (${verdict.why}); scripts send Authorization: Bearer <token> instead`;
  return Response.json({ error: { status: 403, code: "cross-site", message } }, { status: 403, headers: { "cache-control": "no-store" } });
}
