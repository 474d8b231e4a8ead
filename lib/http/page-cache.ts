import { servedCommit } from "@/lib/content/published";
import http from "node:http";
import { createHash, randomBytes } from "node:crypto";
import type { NextRequest } from "next/server";
import { answerBytes } from "@/lib/agents/answer-bytes";
import { etagMatches } from "@/lib/agents/http";
import { persistedPage, persistPage } from "@/lib/read-model";
import { readSide } from "@/lib/read-model/read-side";
import { sessionSecret } from "@/lib/auth/secret";
import { config } from "@/lib/env";
import { commitNonce } from "./csp";
import { pageCacheUrl } from "./page-query";
import { withSecurityHeaders } from "./security-headers";
import { withoutScripts } from "./without-scripts";
import { etagFor, originVary, requestOrigin } from "@/lib/origin";

/**
 * Public HTML pages, rendered once per content commit and origin, then served from memory until
 * `main` moves, without Next's client runtime (./without-scripts.ts: they read and work as plain
 * HTML). Every request reads main's commit fresh (a ref file), so a commit made with plain
 * git is a new key and renders on the very next request. The tag is the commit (with the page and
 * origin hashed), answered 304 on a match; `Cache-Control: no-cache` lets browsers and shared
 * caches keep a page and revalidate it. The studio, the API and sign-in never come here.
 *
 * A miss is rendered once by a request to this same server (marked with a per-process token, so
 * it passes through), which fills the cache with exactly what a reader would get, headers
 * (Content-Security-Policy with the commit's nonce) included, and the missing request is answered
 * with it. A page rendered but not kept (main moved meanwhile, or the cache is full) still answers
 * that request, without scripts and not to be stored; a render that is not a 200 page leaves the
 * request to render as usual. Kept pages of main's commit are also written to disk (lib/read-model/pages.ts,
 * except per-query answers), so a restart on the same commit answers them from there. The entry
 * points (home, the agents' index) are rendered ahead for each new commit, so they are on
 * disk for a restart even when no reader asked for them under that commit (`renderAhead`).
 *
 * Agent formats (the index, capsules, notes' .md/.txt/.json, llms.txt, search.json) are kept the
 * same way (`cachedAgentFormat`, asked before the Markdown-twin rewrite, since they are chosen by
 * their path alone), with the route's own ETag, Cache-Control and Vary, and only when the route
 * says it built them from this very commit (X-Content-Commit). Their bytes were already built once
 * per commit (lib/agents/answer-bytes.ts); this spares each request the route handler around them.
 */

// The agents' guide answers at /agents/ (its canonical address) and /agents alike (next.config.ts).
const PAGES = [/^\/$/, /^\/search$/, /^\/notes\/[^/.]+$/, /^\/notes\/[^/.]+\/history$/, /^\/tags\/[^/]+$/, /^\/phases\/[^/]+$/, /^\/agents\/?$/];
const AGENT_FORMATS = [
  /^\/agents\/(index\.json|index\.md|phases\.json|pages\.txt|search\.json)$/,
  /^\/agents\/capsules\/[^/]+\.json$/,
  /^\/agents\/schema\/[^/]+$/,
  /^\/llms(-full)?\.txt$/,
  /^\/notes\/[A-Z][A-Z0-9]*-\d{3,}\.(md|txt|json)$/,
];
const FILL_HEADER = "x-field-notes-page-fill";
const FILL_TOKEN = randomBytes(16).toString("hex");
// Headers of the rendered page that are about this one transfer, not the page.
const TRANSFER = ["connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding", "date", "set-cookie"];
const HOP = new Set([...TRANSFER, "vary", "etag", "cache-control"]);
// An agent format keeps the validators and Vary its route set (the commit's ETag, CORS exposure).
const AGENT_HOP = new Set(TRANSFER);
export const PAGE_CACHE_CONTROL = "public, no-cache";
// Per kind (pages, agent formats) and commit; a search URL is a new key per query.
const MAX_PAGES = 256;
// Per-query keys remembered as asked once, per commit (past it, the memory starts over).
const MAX_ASKED = 4096;
// The entry points rendered ahead for each new commit (see `renderAhead`): home and the agents'
// index, with no query string; per origin asked, the newest few. Both are derived from the view
// alone. llms.txt is not: it lists the phases, whose first build in a process reads the history of
// every verified note (lib/content/phases.ts), work a reader asking for it should start, not a commit.
const AHEAD = /^\/(agents\/index\.json)?$/;
const MAX_AHEAD = 4;
// How long after a request first sees a new commit the entry points are rendered: commits come in
// bursts (a push, a review's several writes), and the request that saw it goes first.
const AHEAD_DELAY_MS = 300;

type Kind = "page" | "agent";
/** A fill's render: its status, the headers a kept entry keeps, and its text (a page without scripts). */
type Rendered = { status: number; headers: [string, string][]; text: string };
type Entry = { kind: Kind; headers: [string, string][] };
/** How to render a page again: its URL and the request headers a fill passes on. */
type Ask = { kind: Kind; path: string; search: string; headers: Record<string, string> };
export type PageCacheState = {
  commit: string | null;
  pages: Map<string, Entry>;
  /** Renders in flight, by key: concurrent misses wait for the same one. */
  filling: Map<string, Promise<Rendered | null>>;
  view: object;
  /** Pages looked up on disk for this commit, by key (once each). */
  disk: Map<string, Promise<Entry | undefined>>;
  /** Per-query keys asked once for this commit and not kept (see `cached`). */
  asked: Set<string>;
  /** Entry points asked for, by key, oldest first; kept across commits (see `renderAhead`). */
  ahead: Map<string, Ask>;
};
const state = (): PageCacheState =>
  (readSide().pages ??= { commit: null, pages: new Map(), filling: new Map(), view: {}, disk: new Map(), asked: new Set(), ahead: new Map() });

/** Whether this request may be answered from, or fill, the page cache. */
function cacheable(request: NextRequest, kind: Kind): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return false;
  if (!(kind === "page" ? PAGES : AGENT_FORMATS).some((p) => p.test(request.nextUrl.pathname))) return false;
  // Client-side navigations and prefetches ask for the RSC payload, not the page.
  const h = request.headers;
  if (h.get("rsc") || h.get("next-router-prefetch") || h.get("next-router-state-tree") || request.nextUrl.searchParams.has("_rsc")) return false;
  if (routerFetch(request)) return false;
  if (h.get(FILL_HEADER)) return false;
  return true;
}

/**
 * The app's own script asking for a page (Sec-Fetch-Dest "empty" from this origin), which here is
 * Next's router: Next strips its RSC and Next-Router-* headers and `_rsc` before the proxy runs, so
 * these are what is left to tell its fetch from a page load ("document"). Clients that send no
 * Sec-Fetch headers (curl, agents, a proxy in front) ask for the page.
 */
function routerFetch(request: NextRequest): boolean {
  const h = request.headers;
  return h.get("sec-fetch-dest") === "empty" && h.get("sec-fetch-site") === "same-origin";
}

/**
 * The cached page (rendered once now on a miss), a 304, or null (render as usual). The router's
 * fetch of a public page (a link's prefetch or click) is answered 204, which Next's router takes
 * as "load this address as a document": the page then comes from here, rendered once per commit,
 * where an RSC payload would be rendered for every link on every page a reader opens (the cache
 * cannot key one: the router's tree header is stripped before the proxy) and answering the HTML
 * made the router fetch the page twice ([decision](../../docs/decisions/public-pages-load-as-documents.md)).
 */
export async function cachedPage(request: NextRequest): Promise<Response | null> {
  if ((request.method === "GET" || request.method === "HEAD") && PAGES.some((p) => p.test(request.nextUrl.pathname)) && routerFetch(request)) {
    return withSecurityHeaders(new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } }));
  }
  return cached(request, "page");
}

/** The cached agent format (built once now on a miss), a 304, or null (the route answers as usual). */
export function cachedAgentFormat(request: NextRequest): Promise<Response | null> {
  return cached(request, "agent");
}

/**
 * The commit of main readers are served, read fresh from the ref: main's tip, or while the rules
 * refuse it the last accepted commit (lib/content/accepted-main.ts), which is what a page is built
 * from and so what its ETag and X-Content-Commit name. Null when there is none or it cannot be read.
 */
async function mainCommit(): Promise<string | null> {
  try {
    return await servedCommit();
  } catch {
    return null;
  }
}

/** The cache's key of a page or agent format: its kind, the origin it was built for and its URL. */
const keyOf = (kind: Kind, origin: string, url: string) => `${kind} ${origin} ${url}`;

async function cached(request: NextRequest, kind: Kind): Promise<Response | null> {
  if (!cacheable(request, kind)) return null;
  const commit = await mainCommit();
  if (!commit) return null;
  const s = state();
  if (s.commit !== commit) {
    // main moved: every page of the previous commit is stale.
    s.commit = commit;
    s.pages = new Map();
    s.filling = new Map();
    s.view = {};
    s.disk = new Map();
    s.asked = new Set();
    renderAhead(commit);
  }
  const origin = requestOrigin(request.headers);
  // Only the parameters the page reads (./page-query.ts): `?q=anything` on a note is the note.
  const url = pageCacheUrl(request.nextUrl.pathname, request.nextUrl.searchParams);
  const etag = etagFor(commit, `page.${createHash("sha256").update(url).digest("hex").slice(0, 12)}`, origin);
  const vary = ["Accept-Encoding", "Accept", originVary()].filter(Boolean).join(", ");
  const key = keyOf(kind, origin, url);
  if (url === request.nextUrl.pathname && AHEAD.test(url)) rememberAhead(s, key, askOf(request, kind, url));
  let entry = s.pages.get(key);
  // Not in memory: a previous run of this build may have kept it for this very commit (a restart).
  if (!entry) {
    let disk = s.disk.get(key);
    if (!disk) s.disk.set(key, (disk = fromDisk(s, commit, origin, key, kind)));
    entry = await disk;
  }
  // Nowhere: rendered once, through this server, and this request is answered with that render.
  // (Letting the app render it here too, as a fill behind a miss did, made the first reader after
  // a commit wait for two renders on the one thread.) Concurrent misses share the one render.
  if (!entry && s.commit === commit) {
    // An agent's query asked for the first time goes on to its route, which answers it (with the
    // commit's ETag and X-Content-Commit): most queries are asked once, and keeping one would cost
    // it a second pass through this server (the fill). Asked again under the same commit, it is
    // kept (nginx's proxy_cache_min_uses 2). The search page keeps the fill: its ETag is the cache's.
    if (kind === "agent" && PER_QUERY.test(request.nextUrl.pathname) && !s.asked.has(key)) {
      if (s.asked.size >= MAX_ASKED) s.asked.clear();
      s.asked.add(key);
      return null;
    }
    const ask = askOf(request, kind, url);
    const rendered = await (fillOnce(s, ask, commit, key) ?? fill(ask, commit, key, { keep: false }));
    if (s.commit === commit) entry = s.pages.get(key);
    // Rendered but not kept (main moved meanwhile, or this commit's pages fill the cache): a page
    // is still answered with that render, without scripts, as every public page is; not to be kept
    // by anyone, since it may be of either commit.
    if (!entry && kind === "page" && rendered?.status === 200) return uncachedPage(request, rendered);
  }
  if (!entry) return null;
  // A page takes the cache's validators; an agent format keeps its route's (common is then empty).
  const common: Record<string, string> = kind === "page" ? { ETag: etag, "Cache-Control": PAGE_CACHE_CONTROL, Vary: vary, "X-Content-Commit": commit } : {};
  const tag = kind === "page" ? etag : (entry.headers.find(([name]) => name === "etag")?.[1] ?? null);
  if (tag && etagMatches(request.headers.get("if-none-match"), tag)) {
    return new Response(null, { status: 304, headers: { ...Object.fromEntries(entry.headers), ...common } });
  }
  const body = (await answerBytes(s.view as never, key, async () => null))?.raw;
  if (!body) {
    // Its body was dropped (the bytes cache is bounded): render as usual, and fill again next time.
    if (s.pages.get(key) === entry) s.pages.delete(key);
    s.disk.delete(key);
    return null;
  }
  // Identity bytes (lib/agents/answer-bytes.ts): Next compresses them as the client accepts.
  const headers = new Headers(entry.headers);
  for (const [k, v] of Object.entries(common)) headers.set(k, v);
  headers.set("Content-Length", String(body.length));
  return new Response(request.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/**
 * The page a previous run kept on disk for `commit` and `key` (lib/read-model/pages.ts), put in
 * memory; looked up once per key and commit. A page whose CSP nonce is not the one this server
 * derives for the commit and origin (its secret changed) is not used: a 304 from a fresh render
 * would pair that body with another policy.
 */
async function fromDisk(s: PageCacheState, commit: string, origin: string, key: string, kind: Kind): Promise<Entry | undefined> {
  const view = s.view;
  const stored = await persistedPage(commit, key).catch(() => null);
  if (!stored || stored.kind !== kind || s.commit !== commit || s.view !== view) return undefined;
  if (kind === "page") {
    const policy = stored.headers.find(([name]) => name === "content-security-policy")?.[1] ?? "";
    let nonce: string | null = null;
    try {
      nonce = commitNonce(sessionSecret(), commit, origin);
    } catch {
      // No secret to derive it with: the page is rendered again, as without a disk.
    }
    if (!nonce || !policy.includes(`'nonce-${nonce}'`)) return undefined;
  }
  const entry: Entry = { kind, headers: stored.headers };
  await answerBytes(view as never, key, async () => stored.body.toString("utf8"));
  if (s.view !== view) return undefined;
  s.pages.set(key, entry);
  return entry;
}

// Per-query answers: an unbounded space of URLs, each cheap to render again; not worth a file each.
const PER_QUERY = /^\/(search|agents\/search\.json)$/;

function count(s: PageCacheState, kind: Kind): number {
  let n = 0;
  for (const e of s.pages.values()) if (e.kind === kind) n++;
  return n;
}

/** The URL (path and the parameters the page reads) and headers that render `request`'s page again. */
function askOf(request: NextRequest, kind: Kind, url: string): Ask {
  const headers: Record<string, string> = {};
  for (const name of ["host", "x-forwarded-host", "x-forwarded-proto", "accept", "accept-language"]) {
    const v = request.headers.get(name);
    if (v) headers[name] = v;
  }
  const query = url.indexOf("?");
  return { kind, path: request.nextUrl.pathname, search: query < 0 ? "" : url.slice(query), headers };
}

function rememberAhead(s: PageCacheState, key: string, ask: Ask): void {
  s.ahead.delete(key);
  s.ahead.set(key, ask);
  if (s.ahead.size > MAX_AHEAD) s.ahead.delete(s.ahead.keys().next().value!);
}

/**
 * Render the entry points (home, the agents' index) asked for under earlier commits
 * again for `commit`, one after another, a moment after a request first saw it: the next reader
 * of each finds it kept, and it is written to disk, so a server restarted on this commit answers
 * it at once instead of loading its read model and rendering (bench:read's warm start). One render
 * per entry point per commit, on the request thread but between requests; skipped for a page
 * already kept or being rendered, and given up as soon as main moves on.
 */
function renderAhead(commit: string): void {
  const timer = setTimeout(async () => {
    for (const [key, ask] of [...state().ahead]) {
      const s = state();
      if (s.commit !== commit) return;
      // One after another, and none that a reader already asked for.
      if (s.pages.has(key) || s.filling.has(key)) continue;
      await fillOnce(s, ask, commit, key);
    }
  }, AHEAD_DELAY_MS);
  timer.unref();
}

/**
 * After a warm start, render the entry points (home, the agents' index) and one note (`noteId`,
 * the first of the view) once in the background. A process answers its first requests from pages
 * kept on disk, so the modules behind pages (React's server renderer, the layout, the components)
 * and behind agent routes (Next's route runtime, the agent formats, the tokenizer) were loaded and
 * compiled only at the first render, usually the first commit's: every reader then waited behind
 * that synchronous load (stalls of 480–840 ms at 10,000 notes, two readers of a capsule across a
 * plain-git commit, measured). A note page also starts the section renderer's worker thread and its
 * highlighter: the first note page after a warm start and a commit took 528 ms against 120 ms for
 * the next (realistic corpus, 10,000 notes). Here it happens a moment after the start, once each,
 * and the renders are kept like any other of main's commit (once a request has seen that commit).
 * Given up if main cannot be read or the server has no origin yet; other routes still load their
 * own (small) modules at their first request.
 */
export async function warmUp(noteId: string | null = null): Promise<void> {
  const self = selfOrigin();
  if (!self) return;
  const commit = await mainCommit();
  if (!commit) return;
  // A host the guard lets through (lib/http/host-guard.ts): the site's own, else the first allowed.
  const { siteUrl, allowedHosts } = config();
  const host = siteUrl ? new URL(siteUrl).host : (allowedHosts?.[0] ?? new URL(self).host);
  const origin = requestOrigin(new Headers({ host }));
  const asks: Ask[] = [
    { kind: "page", path: "/", search: "", headers: { host, accept: "text/html" } },
    { kind: "agent", path: "/agents/index.json", search: "", headers: { host, accept: "application/json" } },
    ...(noteId ? [{ kind: "page" as const, path: `/notes/${noteId}`, search: "", headers: { host, accept: "text/html" } }] : []),
  ];
  for (const ask of asks) {
    const s = state();
    // Main moved meanwhile: a reader's render has loaded the modules already.
    if (s.commit && s.commit !== commit) return;
    const key = keyOf(ask.kind, origin, ask.path);
    // Not through fillOnce: the page is likely in memory already (from disk); the point is the render.
    if (!s.filling.has(key)) await fill(ask, commit, key);
  }
}

/** A page rendered for one request and not kept (see `cached`). */
function uncachedPage(request: NextRequest, rendered: Rendered): Response {
  const headers = new Headers(rendered.headers);
  headers.set("Cache-Control", "no-store");
  const body = Buffer.from(rendered.text, "utf8");
  headers.set("Content-Length", String(body.length));
  return new Response(request.method === "HEAD" ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers });
}

/** The render of `key` under way, or a new one started; null when this kind's cache is full. */
function fillOnce(s: PageCacheState, ask: Ask, commit: string, key: string): Promise<Rendered | null> | null {
  const under = s.filling.get(key);
  if (under) return under;
  if (count(s, ask.kind) >= MAX_PAGES) return null;
  const started = fill(ask, commit, key).catch(() => null);
  s.filling.set(key, started);
  void started.finally(() => {
    if (state().filling.get(key) === started) state().filling.delete(key);
  });
  return started;
}

/**
 * Render the page once more, through this server, and keep it if it is a 200 HTML page (or agent
 * format) of `commit` (unless `keep` is false). Returns what it rendered, kept or not; null when
 * nothing was rendered.
 */
async function fill(ask: Ask, commit: string, key: string, { keep = true } = {}): Promise<Rendered | null> {
  const self = selfOrigin();
  if (!self) return null;
  const { kind } = ask;
  const target = new URL(`${ask.path}${ask.search}`, self);
  const headers: Record<string, string> = { ...ask.headers, [FILL_HEADER]: FILL_TOKEN, "accept-encoding": "identity" };
  const answer = await new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer } | null>((resolve) => {
    const req = http.request(target, { method: "GET", headers, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", () => resolve(null));
    });
    req.on("error", () => resolve(null));
    req.on("timeout", () => req.destroy());
    req.end();
  });
  if (!answer) return null;
  if (kind === "page" && !String(answer.headers["content-type"] ?? "").startsWith("text/html")) return null;
  const kept: [string, string][] = [];
  for (const [name, value] of Object.entries(answer.headers)) {
    if ((kind === "page" ? HOP : AGENT_HOP).has(name) || name.startsWith("x-middleware") || value === undefined) continue;
    kept.push([name, Array.isArray(value) ? value.join(", ") : value]);
  }
  // A page is kept without Next's client runtime (./without-scripts.ts); an agent format as built.
  const text = kind === "page" ? withoutScripts(answer.body.toString("utf8")) : answer.body.toString("utf8");
  const rendered: Rendered = { status: answer.status, headers: kept, text };
  const s = state();
  if (!keep || answer.status !== 200 || s.commit !== commit) return rendered;
  if (kind === "agent" && answer.headers["x-content-commit"] !== commit) return rendered;
  // A render that raced a commit on main may hold the newer commit: keep it only if main is still there.
  if ((await mainCommit()) !== commit || s.commit !== commit) return rendered;
  await answerBytes(s.view as never, key, async () => text);
  s.pages.set(key, { kind, headers: kept });
  // On disk for the next start, behind this answer (a failed write costs only that).
  if (!PER_QUERY.test(ask.path)) void persistPage(commit, { kind, key, headers: kept, body: Buffer.from(text, "utf8") });
  return rendered;
}

/**
 * This server's own address, where a fill is sent: loopback on the port it listens on. `npm start`
 * is `next start -p ${PORT:-3000}` on every interface, and `next start` leaves PORT set to the port
 * it listens on; without it (a test, a script) nothing is filled. (Not Next's private
 * `__NEXT_PRIVATE_ORIGIN`: a server bound to one address other than loopback with `-H` gets no
 * fill, and renders every page as it would without this cache.)
 */
function selfOrigin(): string | null {
  const port = process.env.PORT;
  return port && /^\d+$/.test(port) ? `http://127.0.0.1:${port}` : null;
}
