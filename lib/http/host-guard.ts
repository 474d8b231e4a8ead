import type { NextRequest } from "next/server";
import { config } from "@/lib/env";
import { isAllowedHost } from "@/lib/web/host-port";
import { requestHost } from "@/lib/origin";

/**
 * Refuses a request addressed to a host this site does not serve (ALLOWED_HOSTS), before any page
 * builds an absolute URL from it. Null when the request may go on.
 *
 * The host judged is the one the origin rule would write into URLs (X-Forwarded-Host's first
 * entry, else Host), so no answer can link to a host outside the list; a request with no usable
 * host is refused too. 421 Misdirected Request says "this server does not answer for that
 * authority" (RFC 9110 §15.5.20), which a client or proxy can act on, unlike a generic 400.
 */
export function refuseForeignHost(request: NextRequest): Response | null {
  return hostRefusal(request.headers, config().allowedHosts);
}

/** The 421 answer for headers naming a host outside `allowed`, or null (also when no list is set). */
export function hostRefusal(headers: Headers, allowed: readonly string[] | null): Response | null {
  if (!allowed) return null;
  const host = requestHost(headers);
  if (host && isAllowedHost(host, allowed)) return null;
  // Quoted as JSON so a forged header cannot forge log lines or the answer's text.
  const named = JSON.stringify((headers.get("x-forwarded-host") ?? headers.get("host") ?? "").slice(0, 200));
  console.warn(`refused a request for host ${named}: not in ALLOWED_HOSTS`);
  return new Response(`421 Misdirected Request: this site does not answer for host ${named}; ALLOWED_HOSTS lists the hosts it serves.\n`, {
    status: 421,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" },
  });
}
