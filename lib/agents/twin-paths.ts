/**
 * Which public page a URL names, and where its Markdown twin is. One table for the proxy (which
 * rewrites a `.md` URL, or a page asked for with Accept: text/markdown, to the twin route and adds
 * the `Link` header to the HTML) and for the pages' own <link rel="alternate">.
 *
 *   /                      ↔ /index.md            (?status=… kept)
 *   /agents/               ↔ /agents.md           (/agents/index.md is the compact index)
 *   /search                ↔ /search.md           (?q=… kept)
 *   /tags/<tag>            ↔ /tags/<tag>.md
 *   /phases/<slug>         ↔ /phases/<slug>.md
 *   /notes/<id>/history    ↔ /notes/<id>/history.md
 *   /notes/<id>            ↔ /notes/<id>.md       (served by the note formats route)
 */

export type TwinPage =
  | { kind: "home" }
  | { kind: "guide" }
  | { kind: "search" }
  | { kind: "tag"; tag: string }
  | { kind: "phase"; phase: string }
  | { kind: "history"; id: string }
  | { kind: "note"; id: string };

const NOTE_ID = "[A-Z][A-Z0-9]*-\\d{3,}";
const SEGMENT = "[^/]+";

const PAGES: { re: RegExp; page: (m: RegExpExecArray) => TwinPage; twin: (m: RegExpExecArray) => string }[] = [
  { re: /^\/$/, page: () => ({ kind: "home" }), twin: () => "/index.md" },
  { re: /^\/agents\/$/, page: () => ({ kind: "guide" }), twin: () => "/agents.md" },
  { re: /^\/search$/, page: () => ({ kind: "search" }), twin: () => "/search.md" },
  { re: new RegExp(`^/tags/(${SEGMENT})$`), page: (m) => ({ kind: "tag", tag: m[1] ?? "" }), twin: (m) => `/tags/${m[1]}.md` },
  { re: new RegExp(`^/phases/(${SEGMENT})$`), page: (m) => ({ kind: "phase", phase: m[1] ?? "" }), twin: (m) => `/phases/${m[1]}.md` },
  { re: new RegExp(`^/notes/(${NOTE_ID})/history$`), page: (m) => ({ kind: "history", id: m[1] ?? "" }), twin: (m) => `/notes/${m[1]}/history.md` },
  { re: new RegExp(`^/notes/(${NOTE_ID})$`), page: (m) => ({ kind: "note", id: m[1] ?? "" }), twin: (m) => `/notes/${m[1]}.md` },
];

/** The page an HTML path shows, or null when it is not a public page with a twin. */
export function pageOf(pathname: string): TwinPage | null {
  for (const p of PAGES) {
    const m = p.re.exec(pathname);
    if (m) return p.page(m);
  }
  return null;
}

/** The twin's path for an HTML path (query not included), or null. */
export function twinPathOf(pathname: string): string | null {
  for (const p of PAGES) {
    const m = p.re.exec(pathname);
    if (m) return p.twin(m);
  }
  return null;
}

/** The page a `.md` path is the twin of (the inverse of twinPathOf), or null. */
export function pageOfTwinPath(pathname: string): TwinPage | null {
  if (pathname === "/index.md") return { kind: "home" };
  if (pathname === "/agents.md") return { kind: "guide" };
  if (!pathname.endsWith(".md")) return null;
  const html = pathname.slice(0, -".md".length);
  const page = pageOf(html);
  // "/.md", "/agents/.md" and the like are not twins of anything.
  return page && page.kind !== "home" && page.kind !== "guide" ? page : null;
}

/**
 * The route that answers every twin but a note's (app/agents/twin/[...twin]); the proxy rewrites a
 * twin to it with the twin's own path after it: /tags/x.md → /agents/twin/tags/x.md, / asked for
 * as Markdown → /agents/twin/index.md. The page travels in the path because that is all Next hands a
 * route handler of an internal rewrite: its params. request.url stays the client's URL (query
 * included), so a page named in the rewrite's query never reached the route under `npm start`
 * (docs/decisions/twin-route-path.md).
 */
export const TWIN_ROUTE = "/agents/twin";

/** The page the twin route's path segments name (as Next gives them: decoded once), or null. */
export function pageOfTwinRoute(segments: readonly string[]): TwinPage | null {
  return pageOfTwinPath(`/${segments.map(encodeURIComponent).join("/")}`);
}

/** The HTML path + query → the twin's URL path + query (the query is kept: ?status=, ?q=). */
export function twinUrlOf(pathname: string, search: string): string | null {
  const twin = twinPathOf(pathname);
  return twin ? `${twin}${search}` : null;
}
