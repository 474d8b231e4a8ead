import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { pageOf, pageOfTwinRoute } from "@/lib/agents/twin-paths";
import { markdownTwin } from "./markdown-twin";

const SITE = "http://localhost:3000";

/** Where the proxy step sends a request: the rewrite's URL, or null when it does not rewrite. */
function rewriteOf(path: string, accept = "*/*"): URL | null {
  const answer = markdownTwin(new NextRequest(`${SITE}${path}`, { headers: { accept } }));
  const to = answer?.headers.get("x-middleware-rewrite");
  return to ? new URL(to) : null;
}

/**
 * What the twin route can know after an internal rewrite (`next start` on every interface, as
 * `npm start` runs): Next hands a route handler the client's own URL as request.url (base-server.js,
 * `request.url = initPathname + parsedInitUrl.search`), and only the params it matched in the
 * rewrite's path. So the page must be named by the rewrite's path, and the query the route reads
 * must be the client's.
 */
function pageTheRouteSees(rewrite: URL) {
  expect(rewrite.pathname.startsWith("/agents/twin/"), rewrite.href).toBe(true);
  // app/agents/twin/[...twin]: the segments after the route's own, each decoded once, as Next does.
  const segments = rewrite.pathname.slice("/agents/twin/".length).split("/").map(decodeURIComponent);
  return pageOfTwinRoute(segments);
}

describe("the Markdown-twin rewrite", () => {
  const pages: [html: string, twin: string][] = [
    ["/", "/index.md"],
    ["/?status=hypothesis&page=2", "/index.md?status=hypothesis&page=2"],
    ["/agents/", "/agents.md"],
    ["/search?q=transactional+state", "/search.md?q=transactional+state"],
    ["/tags/sparse-attention", "/tags/sparse-attention.md"],
    ["/tags/caf%C3%A9", "/tags/caf%C3%A9.md"],
    ["/phases/6-architecture", "/phases/6-architecture.md"],
    ["/notes/AFN-016/history", "/notes/AFN-016/history.md"],
  ];

  it("names the page in the rewrite's path and passes the client's query on unchanged, at the .md URL and by Accept", () => {
    for (const [html, twin] of pages) {
      const [htmlPath, query = ""] = html.split("?");
      const search = query ? `?${query}` : "";
      for (const [url, accept] of [
        [twin, "*/*"],
        [html, "text/markdown"],
      ]) {
        const rewrite = rewriteOf(url!, accept);
        expect(rewrite, url).not.toBeNull();
        expect(pageTheRouteSees(rewrite!), url).toEqual(pageOf(htmlPath!));
        // Nothing the route needs travels in the query: after an internal rewrite it reads the
        // client's, after a proxied one the rewrite's, and both are the same.
        expect(rewrite!.search, url).toBe(search);
      }
    }
  });

  it("sends a note's .md, .txt and .json to the note formats route, and leaves HTML and agent formats alone", () => {
    expect(rewriteOf("/notes/AFN-016.md")?.pathname).toBe("/agents/notes/AFN-016.md");
    expect(rewriteOf("/notes/AFN-016.json")?.pathname).toBe("/agents/notes/AFN-016.json");
    expect(rewriteOf("/notes/AFN-016", "text/markdown")?.pathname).toBe("/agents/notes/AFN-016.md");
    for (const path of ["/", "/tags/sparse-attention", "/agents/index.md", "/llms.txt", "/studio"]) expect(rewriteOf(path, "text/html"), path).toBeNull();
  });
});
