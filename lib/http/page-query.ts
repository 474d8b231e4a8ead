/**
 * Which query parameters change a cached page or agent format (lib/http/page-cache.ts): only these
 * are part of its key, in this order, so `/notes/AFN-016?q=anything` is the note page already
 * rendered, not a new render (a long note took seconds each). Each list is what the route reads:
 * home's filters (lib/public/record-query.ts `parseRecordQuery`, `statusParam`) and page, search's q,
 * a tag's or phase's page, a note's rev, the agents' index cursor, search.json's q and limit. A route that starts
 * reading another parameter must be named here, or every request gets the page without it.
 */
const READS: [RegExp, readonly string[]][] = [
  [/^\/$/, ["status", "tag", "phase", "view", "sort", "dir", "group", "page"]],
  [/^\/search$/, ["q"]],
  // A note pinned to a commit of main (lib/content/pinned-note.ts), as a page and as its .md/.txt/.json.
  [/^\/notes\/[^/]+$/, ["rev"]],
  [/^\/(tags|phases)\/[^/]+$/, ["page"]],
  [/^\/agents\/index\.(json|md)$/, ["cursor"]],
  [/^\/agents\/search\.json$/, ["q", "limit"]],
];

/** The path and the parameters the page reads (every value of each, as sent), as the cache keys it. */
export function pageCacheUrl(pathname: string, params: URLSearchParams): string {
  const reads = READS.find(([path]) => path.test(pathname))?.[1] ?? [];
  const kept = new URLSearchParams();
  for (const name of reads) for (const value of params.getAll(name)) kept.append(name, value);
  const search = kept.toString();
  return search ? `${pathname}?${search}` : pathname;
}
