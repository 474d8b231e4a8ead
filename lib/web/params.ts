/**
 * The one way the app reads a percent-encoded piece of a URL. `decodeURIComponent` throws a
 * URIError on a malformed escape (`%E0%A4`, a lone `%`), and an uncaught throw is a 500; here a
 * malformed escape is an answer instead: null, which each caller turns into its 404 ("there is no
 * note, tag or thread by that name"), and the proxy (./malformed-path.ts) into a 400 before Next's
 * own router, which decodes dynamic segments itself, can fail on it.
 *
 * Route handlers get their params from Next already decoded once; pages get them still encoded.
 * Decoding once more is harmless for what our params name (note ids, thread ids, slugs, file names
 * contain no `%`), so every caller decodes through here and gets the same answer either way.
 */

/** `raw` with its percent-escapes decoded once; null when an escape is malformed. */
export function decodeParam(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** Whether some segment of a URL path would fail to decode (so no route could read it). */
export function hasMalformedEscape(pathname: string): boolean {
  return pathname.split("/").some((segment) => decodeParam(segment) === null);
}
