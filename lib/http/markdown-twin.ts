import { NextResponse, type NextRequest } from "next/server";
import { prefersMarkdown } from "@/lib/agents/negotiate";

/**
 * Every published note has four formats under one path: /notes/AFN-016 is the HTML page,
 * /notes/AFN-016.md, .txt and .json are served by the agent routes, and /notes/AFN-016 asked for
 * with Accept: text/markdown gets the Markdown, marked `Vary: Accept`.
 *
 * The HTML answer cannot carry `Vary: Accept` from here: Next 16 sets the Vary header of an app
 * page itself (app-page-runtime: res.setHeader('Vary', …)), replacing what a proxy adds. It is
 * safe anyway, because Next marks a dynamic page `no-store`, so no cache keeps the HTML to hand it
 * to a client that asked for Markdown; the e2e tests hold both facts.
 */

const FORMAT = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})\.(md|txt|json)$/;
const PAGE = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})\/?$/;

/** A rewrite to the Markdown (or other) twin of a page, or null when the HTML page answers. */
export function markdownTwin(request: NextRequest): NextResponse | null {
  const { pathname } = request.nextUrl;
  const format = FORMAT.exec(pathname);
  if (format) return NextResponse.rewrite(new URL(`/agents/notes/${format[1]}.${format[2]}`, request.url));

  const page = PAGE.exec(pathname);
  if (page && prefersMarkdown(request.headers.get("accept"))) {
    return NextResponse.rewrite(new URL(`/agents/notes/${page[1]}.md`, request.url), { headers: { Vary: "Accept" } });
  }
  return null;
}
