import { NextResponse, type NextRequest } from "next/server";
import { prefersMarkdown } from "@/lib/agents/negotiate";

/**
 * Every published note has four formats under one path: /notes/AFN-016 is the HTML page,
 * /notes/AFN-016.md, .txt and .json are served by the agent routes, and /notes/AFN-016 asked for
 * with Accept: text/markdown gets the Markdown. The page's answer therefore varies with Accept.
 */

const FORMAT = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})\.(md|txt|json)$/;
const PAGE = /^\/notes\/([A-Z][A-Z0-9]*-\d{3,})\/?$/;

export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  const format = FORMAT.exec(pathname);
  if (format) return NextResponse.rewrite(new URL(`/agents/notes/${format[1]}.${format[2]}`, request.url));

  const page = PAGE.exec(pathname);
  if (page && prefersMarkdown(request.headers.get("accept"))) {
    return NextResponse.rewrite(new URL(`/agents/notes/${page[1]}.md`, request.url), { headers: { Vary: "Accept" } });
  }
  const response = NextResponse.next();
  response.headers.set("Vary", "Accept");
  return response;
}

export const config = { matcher: ["/notes/:path*"] };
