import { NextResponse, type NextRequest } from "next/server";
import { mainCommitOf } from "@/lib/content/pinned-note";

/**
 * `/notes/AFN-016@<commit>` (and its `.md`, `.txt`, `.json`) is the path form of `?rev=`, short
 * enough to cite in a commit message or a code comment. It is redirected (308) to the canonical
 * `/notes/AFN-016?rev=<full commit id>` once the prefix names exactly one commit on main's
 * first-parent line, so each pinned revision has one address in every cache and whether the note
 * was published there is decided by the one route that reads `?rev=`. A prefix that names no
 * commit of main (a draft's commit never does), or several, is a 404 that says which, here.
 * Null for any other path. See docs/decisions/governing-and-pinned-citations.md.
 */

const PINNED = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})@([^/]*?)(\.(?:md|txt|json))?$/;

export async function pinnedPath(request: NextRequest): Promise<Response | null> {
  const { pathname } = new URL(request.url);
  const m = PINNED.exec(pathname);
  if (!m || (request.method !== "GET" && request.method !== "HEAD")) return null;
  const [, id = "", raw = "", format = ""] = m;
  let rev: string;
  try {
    rev = decodeURIComponent(raw);
  } catch {
    rev = raw;
  }
  const found = await mainCommitOf(rev);
  if (found.ok) return NextResponse.redirect(new URL(`/notes/${id}${format}?rev=${found.commit}`, request.url), 308);
  const message = `${found.problem}: /notes/${id}@<commit> names a commit of main (7 to 40 hex digits) where the note is published; its history is /notes/${id}/history`;
  const headers = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  if (format === ".json") return Response.json({ error: message, status: 404 }, { status: 404, headers });
  return new Response(`${message}\n`, { status: 404, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });
}
