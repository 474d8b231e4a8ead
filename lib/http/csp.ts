import { createHmac, randomBytes } from "node:crypto";

/**
 * The Content-Security-Policy values and their nonces, as pure functions (the proxy wires them to a
 * request in ./security-headers.ts). Why a public page's nonce is derived from the content commit
 * and not drawn at random: docs/decisions/csp-nonce-per-commit.md.
 */

/** 128 bits, base64url: what CSP's nonce-source grammar accepts and Next reads back. */
export function commitNonce(key: string, commit: string, origin: string): string {
  return createHmac("sha256", key).update(`csp\n${commit}\n${origin}`).digest().subarray(0, 16).toString("base64url");
}

export function randomNonce(): string {
  return randomBytes(16).toString("base64url");
}

/**
 * The policy of an HTML page. Scripts only with this response's nonce ('strict-dynamic' lets
 * Next's own loader add its chunks); no inline script, no eval (except in `next dev`, whose React
 * debugging needs it). Styles may be inline: React's `style` props and the Markdown editor set
 * style attributes, which a nonce cannot cover, and a style cannot run code. No page may be framed.
 */
export function pagePolicy(nonce: string, options: { dev?: boolean; https?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}

/** The policy of a JSON answer: it loads nothing, runs nothing and is framed nowhere. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The policy of a note's image (`/assets/…`). Opened on its own, an SVG is a document: even a
 * sanitised one runs nothing, loads nothing and is sandboxed. It replaces the page policy there
 * (Next keeps the proxy's header over the route's), so an image never carries a page's nonce.
 */
export const IMAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** Headers every answer carries, HTML or not. HSTS only when the site is configured as https. */
export function baseHeaders(siteUrl: string | null): Record<string, string> {
  return {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "X-Frame-Options": "DENY",
    ...(siteUrl?.startsWith("https://") ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}

/** Pages only for signed-in people or about signing in: never cached, so their nonce is per request. */
export function isPrivatePath(pathname: string): boolean {
  return /^\/(studio|sign-in|api\/auth)(\/|$)/.test(pathname);
}

/** The studio's JSON API: answers that are data, never a document. */
export function isApiPath(pathname: string): boolean {
  return /^\/api\/studio(\/|$)/.test(pathname);
}

/** A note's image, served by lib/http/serve-asset.ts. */
export function isImagePath(pathname: string): boolean {
  return pathname.startsWith("/assets/");
}
