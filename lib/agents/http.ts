import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { etagFor, originFor, originVary } from "@/lib/origin";
import { answerBytes } from "./answer-bytes";
import { agentUrls, type AgentUrls } from "./urls";

/**
 * The one way an agent route answers a GET. Every response names the content commit it was built
 * from (X-Content-Commit), carries an ETag of that commit, answers a matching If-None-Match with
 * 304 before doing any work, revalidates on every use, and is readable from any origin. Failures
 * come back as a clear message in the route's own media type, never as a crash.
 */

export const MEDIA = {
  json: "application/json; charset=utf-8",
  schema: "application/schema+json; charset=utf-8",
  markdown: "text/markdown; charset=utf-8",
  text: "text/plain; charset=utf-8",
  /** RFC 9727's API catalog, an RFC 9264 linkset. */
  linkset: 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
} as const;
export type Media = keyof typeof MEDIA;

export type AgentContext = { view: PublishedView; urls: AgentUrls; request: Request };

/**
 * What a route builds: a body (with the headers that belong to it, such as a `Link` to the next
 * page, kept with its bytes so an answer from them carries them too), or a refusal with its HTTP
 * status and what went wrong. A header set on the Response after serveAgent is lost on every
 * answer after the first.
 */
export type Built = { body: string | object; headers?: Record<string, string> } | { status: 400 | 404 | 410; error: string };

export const CACHE_CONTROL = "public, max-age=0, must-revalidate";

/**
 * Every HTML page and Markdown answer names the archive's covering index (llms.txt's August 2026
 * revision; RFC 8288's "describedby"): an agent that landed on one page finds the map from it.
 */
export const DESCRIBED_BY = `</llms.txt>; rel="describedby"`;

const CORS: Record<string, string> = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Expose-Headers": "ETag, X-Content-Commit, Link, Vary",
};

/** The site's own base URL, by the one origin rule (lib/origin.ts). */
export function siteBase(request: Request): string {
  return originFor(request);
}

/** Agent documents hold absolute URLs: shared caches must key them on the headers that chose the origin. */
function withOriginVary(headers: Record<string, string> = {}): Record<string, string> {
  const vary = originVary();
  return vary ? { ...headers, Vary: headers.Vary ? `${headers.Vary}, ${vary}` : vary } : headers;
}

export async function serveAgent(
  request: Request,
  options: { variant: string; media: Media; headers?: Record<string, string> },
  build: (ctx: AgentContext) => Built | Promise<Built>,
): Promise<Response> {
  let view: PublishedView;
  let urls: AgentUrls;
  try {
    urls = agentUrls(siteBase(request));
    view = await getPublishedView();
  } catch (e) {
    // The content repository could not be read: say so, and let the client retry.
    return failure(options.media, 503, `the published notes are unavailable: ${(e as Error).message}`, null, { "Retry-After": "5" });
  }
  // Keyed by origin as well as commit: one host's answer is never "unchanged" for another's.
  const etag = etagFor(view.commit, options.variant, urls.base);
  const headers: Record<string, string> = {
    ...CORS,
    ...withOriginVary(options.headers),
    ETag: etag,
    "X-Content-Commit": view.commit,
    "Cache-Control": CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
    ...(options.media === "markdown" ? { Link: DESCRIBED_BY } : {}),
  };
  if (etagMatches(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });

  // Built and serialised once per commit, origin and URL.
  const url = new URL(request.url);
  let refusal: Response | null = null;
  const encoded = await answerBytes(view, `${etag} ${url.pathname}${url.search}`, async () => {
    let built: Built;
    try {
      built = await build({ view, urls, request });
    } catch (e) {
      console.error(`agent route ${url.pathname} failed`, e);
      refusal = failure(options.media, 500, `could not build this document: ${(e as Error).message}`, view.commit);
      return null;
    }
    if ("error" in built) {
      refusal = failure(options.media, built.status, built.error, view.commit);
      return null;
    }
    const text = typeof built.body === "string" ? built.body : `${JSON.stringify(built.body, null, 2)}\n`;
    return built.headers ? { text, headers: built.headers } : text;
  });
  // A concurrent request that shared a failed build has no refusal of its own: build it again.
  if (!encoded) return refusal ?? serveAgent(request, options, build);
  // Identity bytes (lib/agents/answer-bytes.ts): Next compresses them as the client accepts.
  const body = encoded.raw;
  const vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : "Accept-Encoding";
  const sent = new Headers({ ...headers, Vary: vary, "Content-Type": MEDIA[options.media], "Content-Length": String(body.length) });
  for (const [name, value] of Object.entries(encoded.headers ?? {})) sent.append(name, value);
  return new Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers: sent });
}

/** The answer to a CORS preflight on any agent GET route. */
export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "Access-Control-Allow-Methods": "GET, HEAD, OPTIONS",
      "Access-Control-Allow-Headers": "Accept, If-None-Match",
      "Access-Control-Max-Age": "86400",
      Allow: "GET, HEAD, OPTIONS",
    },
  });
}

/** If-None-Match holds `*` or the ETag, compared weakly (a W/ prefix from a proxy still matches). */
export function etagMatches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}

function failure(media: Media, status: number, message: string, commit: string | null, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = { ...CORS, ...extra, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };
  if (commit) headers["X-Content-Commit"] = commit;
  if (media === "json" || media === "schema" || media === "linkset") {
    return new Response(`${JSON.stringify({ error: message, status, commit })}\n`, {
      status,
      headers: { ...headers, "Content-Type": MEDIA.json },
    });
  }
  return new Response(`${message}\n`, { status, headers: { ...headers, "Content-Type": MEDIA.text } });
}
