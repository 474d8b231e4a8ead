import { servedCommit } from "@/lib/content/published";
import { NextResponse, type NextRequest } from "next/server";
import { forwardClientAddress } from "@/lib/web/client-address";
import { sessionSecret } from "@/lib/auth/secret";
import { config } from "@/lib/env";
import { API_POLICY, baseHeaders, commitNonce, IMAGE_POLICY, isApiPath, isImagePath, isPrivatePath, pagePolicy, randomNonce } from "./csp";
import { requestOrigin } from "@/lib/origin";

/**
 * The answer for a request that no guard refused and no rewrite took: the app, with its security
 * headers. The Content-Security-Policy goes on the request too, because Next reads the nonce from
 * the request's policy header and puts it on every script it writes into the page.
 */
export async function continueSecurely(request: NextRequest): Promise<NextResponse> {
  const policy = await policyFor(request);
  const headers = forwardClientAddress(new Headers(request.headers));
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  return withHeaders(response, policy);
}

/** A guard's refusal or a rewrite, with the same headers (its body is never a page with scripts). */
export function withSecurityHeaders<R extends Response>(response: R): R {
  return withHeaders(response, API_POLICY);
}

function withHeaders<R extends Response>(response: R, policy: string): R {
  for (const [name, value] of Object.entries(baseHeaders(config().siteUrl))) response.headers.set(name, value);
  response.headers.set("Content-Security-Policy", policy);
  return response;
}

async function policyFor(request: NextRequest): Promise<string> {
  const { pathname } = request.nextUrl;
  if (isApiPath(pathname)) return API_POLICY;
  if (isImagePath(pathname)) return IMAGE_POLICY;
  const { siteUrl } = config();
  const options = { dev: process.env.NODE_ENV === "development", https: siteUrl?.startsWith("https://") ?? false };
  const cacheable = (request.method === "GET" || request.method === "HEAD") && !isPrivatePath(pathname);
  return pagePolicy((cacheable && (await publicNonce(request, siteUrl))) || randomNonce(), options);
}

/**
 * A public page is cached per content commit and answered 304 from that cache, so its nonce must
 * be the one the cached body was written with: derived from main's commit and the origin, keyed by
 * the server's secret. Null when main cannot be read (the page then fails on its own, with its error).
 */
async function publicNonce(request: NextRequest, siteUrl: string | null): Promise<string | null> {
  try {
    const commit = await servedCommit();
    return commit && commitNonce(sessionSecret(), commit, requestOrigin(request.headers, siteUrl));
  } catch (e) {
    console.error("security headers: main's commit could not be read for the page's nonce; using a random one", e);
    return null;
  }
}
