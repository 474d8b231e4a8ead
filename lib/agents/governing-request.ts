import { getPublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { originFor } from "@/lib/origin";
import { checkQuery, GOVERNING_LIMITS, governingNotes, normalizePath, type GoverningQuery } from "./governing";
import { MEDIA, type AgentContext, type Built } from "./http";
import { changedPaths } from "./unified-diff";
import { agentUrls } from "./urls";
import { readCapped } from "@/lib/web/body";

/** The question as /agents/governing.json's GET asks it: `path=` (repeated) and `component=`. */
export function queryFromParams(params: URLSearchParams): { ok: true; query: GoverningQuery } | { ok: false; error: string } {
  const paths: string[] = [];
  for (const raw of params.getAll("path")) {
    const path = normalizePath(raw);
    if (path === null)
      return {
        ok: false,
        error: `path=${JSON.stringify(raw.slice(0, 80))} is not a repository path (empty, or over ${GOVERNING_LIMITS.pathLength} characters)`,
      };
    paths.push(path);
  }
  const query = { paths, components: params.getAll("component") };
  const problem = checkQuery(query);
  return problem ? { ok: false, error: problem } : { ok: true, query };
}

/** The question as a unified diff: the paths its files touch (old and new names of a rename). */
export function queryFromDiff(diff: string): { ok: true; query: GoverningQuery } | { ok: false; error: string } {
  const read = changedPaths(diff);
  if (!read.ok) return read;
  const paths = read.paths.map(normalizePath).filter((p): p is string => p !== null);
  const query = { paths, components: [] };
  const problem = checkQuery(query);
  return problem ? { ok: false, error: `the diff: ${problem}` } : { ok: true, query };
}

/** The answer for a checked question at the view's commit. */
export async function answerGoverning({ view, urls }: Pick<AgentContext, "view" | "urls">, query: GoverningQuery): Promise<Built> {
  return { body: governingNotes(view, urls, await lastChanges(view), query) };
}

const DIFF_TYPES = /^(?:text\/x-diff|text\/x-patch|text\/plain|application\/x-diff|application\/x-patch)\s*(?:;|$)/i;

/**
 * POST /agents/governing.json with a unified diff: refused 415 (not a diff's media type), 413 (over
 * the size limit) or 400 (not a diff) with a message saying which; otherwise the same document as
 * the GET for the diff's paths. Never cached: every diff is its own question.
 */
export async function postGoverning(request: Request): Promise<Response> {
  const headers = { "Access-Control-Allow-Origin": "*", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff", "Content-Type": MEDIA.json };
  const refuse = (status: number, error: string, commit: string | null = null) =>
    new Response(`${JSON.stringify({ error, status, commit })}\n`, { status, headers: commit ? { ...headers, "X-Content-Commit": commit } : headers });
  const type = request.headers.get("content-type") ?? "";
  if (!DIFF_TYPES.test(type))
    return refuse(
      415,
      `send the diff as text/x-diff (git diff's output); the request has ${type ? `Content-Type ${JSON.stringify(type.slice(0, 100))}` : "no Content-Type"}`,
    );
  const diff = await readText(request, GOVERNING_LIMITS.diffBytes);
  if (diff === null) return refuse(413, `the diff is over ${GOVERNING_LIMITS.diffBytes / 1_000_000} MB; send the diff of fewer files, or ask with GET ?path=…`);
  let view;
  try {
    view = await getPublishedView();
  } catch (e) {
    return new Response(`${JSON.stringify({ error: `the published notes are unavailable: ${(e as Error).message}`, status: 503, commit: null })}\n`, {
      status: 503,
      headers: { ...headers, "Retry-After": "5" },
    });
  }
  const asked = queryFromDiff(diff);
  if (!asked.ok) return refuse(400, asked.error, view.commit);
  const built = await answerGoverning({ view, urls: agentUrls(originFor(request)) }, asked.query);
  if (!("body" in built)) return refuse(built.status, built.error, view.commit);
  return new Response(`${JSON.stringify(built.body, null, 2)}\n`, { status: 200, headers: { ...headers, "X-Content-Commit": view.commit } });
}

async function readText(request: Request, cap: number): Promise<string | null> {
  const bytes = await readCapped(request, cap);
  return bytes === null ? null : new TextDecoder().decode(bytes);
}
