import { NextResponse, type NextRequest } from "next/server";
import { DESCRIBED_BY } from "@/lib/agents/http";
import { prefersMarkdown } from "@/lib/agents/negotiate";
import { pageOf, pageOfTwinPath, TWIN_ROUTE, twinPathOf, twinUrlOf, type TwinPage } from "@/lib/agents/twin-paths";

/**
 * Every public page has a Markdown twin (the table is lib/agents/twin-paths.ts): at its URL with
 * .md added (/index.md for /, /agents.md for the guide), and at the page's own URL when the client
 * ranks text/markdown above HTML in Accept. Notes' .md, .txt and .json go to the note formats
 * route; every other twin to /agents/twin. The HTML page names its twin in a Link header.
 *
 * The guide's canonical path is /agents/ (site.yaml), so next.config.ts turns off Next's own
 * trailing-slash redirect and this step does it for every other path (/x/ → /x, as Next did);
 * /agents and /agents/ both answer the guide, which names /agents/ as canonical.
 *
 * The HTML answer cannot carry `Vary: Accept` from here: Next 16 sets the Vary header of an app
 * page itself (app-page-runtime: res.setHeader('Vary', …)), replacing what a proxy adds. It is
 * safe anyway, because Next marks a dynamic page `no-store`, so no cache keeps the HTML to hand it
 * to a client that asked for Markdown; the e2e tests hold both facts.
 */

const NOTE_FORMAT = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})\.(md|txt|json)$/;

/** A redirect that drops a trailing slash, a rewrite to a twin, or null when the HTML page answers. */
export function markdownTwin(request: NextRequest): NextResponse | null {
  const { pathname, search } = rawUrl(request);
  const slash = canonicalSlash(request);
  if (slash) return slash;

  const format = NOTE_FORMAT.exec(pathname);
  if (format) return NextResponse.rewrite(new URL(`/agents/notes/${format[1]}.${format[2]}`, request.url));

  const twin = pageOfTwinPath(pathname);
  if (twin) return NextResponse.rewrite(twinTarget(request, twin, pathname, search), { headers: { Vary: "Accept" } });

  const page = pageOf(pathname);
  const twinPath = page && twinPathOf(pathname);
  if (page && twinPath && prefersMarkdown(request.headers.get("accept"))) {
    return NextResponse.rewrite(twinTarget(request, page, twinPath, search), { headers: { Vary: "Accept" } });
  }
  return null;
}

/**
 * The HTML answer of a public page (every one has a twin), with `Link: <twin>; rel="alternate";
 * type="text/markdown"` and the covering index, `Link: </llms.txt>; rel="describedby"`.
 */
export function withMarkdownLink<R extends Response>(request: NextRequest, response: R): R {
  const { pathname, search } = rawUrl(request);
  const twin = twinUrlOf(pathname, search);
  if (twin) {
    response.headers.append("Link", `<${twin}>; rel="alternate"; type="text/markdown"`);
    response.headers.append("Link", DESCRIBED_BY);
  }
  return response;
}

/**
 * The twin route with the twin's path after it (/agents/twin/tags/x.md), and the client's query
 * unchanged. Nothing the route needs may ride in the query: after an internal rewrite (`npm start`)
 * Next hands the route the client's URL, and only the params of the rewrite's path (base-server.js
 * sets request.url from initURL); see lib/agents/twin-paths.ts.
 */
function twinTarget(request: NextRequest, page: TwinPage, twinPath: string, search: string): URL {
  if (page.kind === "note") return new URL(`/agents/notes/${page.id}.md`, request.url);
  return new URL(`${TWIN_ROUTE}${twinPath}${search}`, request.url);
}

/**
 * /x/ → /x for every path but / and /agents/, as Next does by default. /agents itself is not
 * redirected: Next's URL handling strips a trailing slash from any Location a proxy sets (it reads
 * it through NextURL and the trailingSlash setting), so /agents and /agents/ both answer the guide,
 * whose canonical link names /agents/.
 */
function canonicalSlash(request: NextRequest): NextResponse | null {
  const { pathname, search } = rawUrl(request);
  if (pathname.length <= 1 || !pathname.endsWith("/") || pathname === "/agents/") return null;
  const to = pathname.replace(/\/+$/, "") || "/";
  // Absolute, as NextResponse.redirect needs; Next sends it relative to the client's own host.
  return NextResponse.redirect(new URL(`${to}${search}`, request.url), 308);
}

/**
 * The path as the client sent it. request.nextUrl applies Next's trailing-slash rule when it is
 * read and written, which would hide the very slash this step decides on.
 */
function rawUrl(request: NextRequest): { pathname: string; search: string } {
  const url = new URL(request.url);
  return { pathname: url.pathname, search: url.search };
}
