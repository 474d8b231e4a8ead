import type { NextRequest } from "next/server";
import { hasMalformedEscape } from "@/lib/web/params";

/**
 * Refuses a path with a malformed percent-escape (`/notes/%E0%A4`) with a 400 that says so, and
 * logs it. Without this step Next's router, which decodes a dynamic segment before any of our code
 * runs, throws on it and answers 500 with no log line (Next 16 has no 400 page for the App Router).
 * Null when the path decodes.
 */
export function refuseMalformedPath(request: NextRequest): Response | null {
  const { pathname } = request.nextUrl;
  if (!hasMalformedEscape(pathname)) return null;
  // Quoted as JSON so the path cannot forge log lines; a percent-encoded path is ASCII anyway.
  const named = JSON.stringify(pathname.slice(0, 300));
  console.warn(`refused ${request.method} ${named}: a malformed percent-escape in the path`);
  const message = `the path ${named} has a malformed percent-escape (a % must be followed by two hex digits that spell UTF-8)`;
  const headers = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  if (pathname.startsWith("/api/")) {
    return Response.json({ error: { status: 400, code: "bad-path", message } }, { status: 400, headers });
  }
  return new Response(`400 Bad Request: ${message}.\n`, { status: 400, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
