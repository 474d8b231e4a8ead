/**
 * The pure half of the static export (scripts/export.ts): which URLs it follows, which file each
 * one becomes, and how an HTML page is made independent of the server. Kept apart from the
 * crawler's I/O so each rule can be tested on its own (export-paths.test.ts).
 */

import { withoutScripts } from "@/lib/http/without-scripts";

/** Paths the export never writes: the studio and its API, sign-in, and what only a server can answer. */
const SERVER_ONLY = [
  /^\/studio(\/|$)/,
  /^\/api\//,
  /^\/sign-in(\/|$)/,
  /^\/agents\/mcp$/,
  /^\/agents\/search\.json$/,
  /^\/agents\/twin(\/|$)/,
  /^\/_next\/(?!static\/)/,
];

/**
 * The queries a static file can stand for, one parameter alone: the home page's status filter and
 * page number, and the compact index's cursor. Any other query (a search's ?q=, the records'
 * combined filters, sort and table view) needs the server; nginx answers it with the plain page.
 */
const FILE_QUERY = /^(status|page|cursor)=[A-Za-z0-9-]+$/;

/**
 * Whether the export writes this URL at all: not the studio, its API, sign-in, or what only a server
 * can answer (MCP, search); only the queries a file can stand for.
 */
export function exported(pathname: string, search: string): boolean {
  if (SERVER_ONLY.some((re) => re.test(pathname))) return false;
  if (pathname.includes("..")) return false;
  const query = search.replace(/^\?/, "");
  if (query && !FILE_QUERY.test(query)) return false;
  // /agents has the same page as /agents/ (its canonical form); only the canonical one is written.
  return pathname !== "/agents";
}

/**
 * The file (relative to the export's root) that holds the answer to a URL path + query: an HTML page
 * is `<path>.html` (`<path>index.html` for a path ending in a slash, so / and /agents/ are index.html
 * files); any other answer keeps its own name, which must end in an extension. A query variant
 * lives under `_query/<name>=<value>/` with the same name (nginx maps the query back to it).
 */
export function fileFor(pathname: string, search: string, contentType: string): string {
  const query = search.replace(/^\?/, "");
  let file: string;
  if (contentType.startsWith("text/html")) file = pathname.endsWith("/") ? `${pathname}index.html` : `${pathname}.html`;
  else if (/\.[A-Za-z0-9]+$/.test(lastSegment(pathname))) file = pathname;
  else throw new Error(`${pathname} answered ${contentType || "no content type"} and has no file extension to serve it by`);
  return decodePath(query ? `/_query/${query}${file}` : file).slice(1);
}

function lastSegment(pathname: string): string {
  return pathname.slice(pathname.lastIndexOf("/") + 1);
}

/** Percent-escapes in a path become the characters of the file name (a tag with a space, say). */
function decodePath(p: string): string {
  try {
    return decodeURIComponent(p);
  } catch {
    return p;
  }
}

/**
 * Every same-site URL a response names: href/src/srcset attributes of HTML, url() in CSS, <loc> and href in
 * XML (sitemap, feed), and every absolute URL on the site's origin in Markdown, text and JSON.
 * Fragments are dropped.
 */
export function linksIn(body: string, contentType: string, pageUrl: URL, origin: string): URL[] {
  const found: string[] = [];
  if (contentType.startsWith("text/html")) {
    for (const m of body.matchAll(/\s(?:href|src)="([^"]+)"/g)) found.push(unescapeHtml(m[1] ?? ""));
    // A responsive image names its narrower copies in srcset ("url 640w, url 1280w"); a browser
    // fetches one of them, not src, so each must be in the export too.
    for (const m of body.matchAll(/\ssrcset="([^"]+)"/g)) {
      for (const candidate of unescapeHtml(m[1] ?? "").split(",")) found.push(candidate.trim().split(/\s+/)[0] ?? "");
    }
  } else if (/\bxml\b|\+xml/.test(contentType)) {
    // Sitemap <loc>s and Atom links; an Atom category's scheme is a name, not a page.
    for (const m of body.matchAll(/<loc>([^<]+)<\/loc>|\shref="([^"]+)"/g)) found.push(unescapeHtml(m[1] ?? m[2] ?? ""));
  } else if (contentType.startsWith("text/css")) {
    for (const m of body.matchAll(/url\(\s*["']?([^"')]+)["']?\s*\)/g)) found.push(m[1] ?? "");
  } else {
    const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    // A URL that runs into `<` or `{` is a template (`/tags/<tag>.md`), not a link.
    for (const m of body.matchAll(new RegExp(`${escaped}(/[^\\s"'<>{}()\\[\\]\`]*)(.?)`, "g"))) {
      if (m[2] !== "<" && m[2] !== "{") found.push(`${origin}${m[1] ?? ""}`);
    }
  }
  const urls: URL[] = [];
  for (const raw of found) {
    // A URL template ({id}) names no file; a data:, mailto: or in-page link names none either.
    if (raw.startsWith("data:") || raw.startsWith("mailto:") || raw.startsWith("#") || raw.includes("{")) continue;
    let url: URL;
    try {
      // Punctuation that ends a sentence in Markdown or text is not part of the URL.
      url = new URL(contentType.startsWith("text/html") ? raw : raw.replace(/[.,;:]+$/, ""), pageUrl);
    } catch {
      continue;
    }
    if (url.origin !== new URL(origin).origin && url.origin !== pageUrl.origin) continue;
    url.hash = "";
    urls.push(url);
  }
  return urls;
}

function unescapeHtml(s: string): string {
  return s
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

/**
 * An exported page carries no script (lib/http/without-scripts.ts: the page cache already serves
 * public pages so) and no nonce: the server's nonce is per commit, and no static server could send
 * the policy that matches it. nginx then sends a policy that allows no script at all
 * (deploy/nginx-static.conf).
 */
export function staticHtml(html: string): string {
  return withoutScripts(html).replace(/\snonce="[^"]*"/g, "");
}
