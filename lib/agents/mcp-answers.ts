import { LRUCache } from "lru-cache";
import type { NextRequest } from "next/server";
import { siteBase } from "@/lib/agents/http";
import { foreignReason } from "@/lib/agents/own-origin";
import { agentUrls } from "@/lib/agents/urls";
import { servedCommit } from "@/lib/content/published";
import { readSide } from "@/lib/read-model/read-side";

/**
 * MCP tool results kept per commit, so a repeated `tools/call` (an agent searching again, many
 * agents asking the same) is answered without building an MCP server: building one and its
 * transport, and validating the result against the tool's output schema, cost 4–64 ms a request,
 * several times the search itself. This is the same per-commit caching `/agents/search.json` has.
 *
 * Every tool an anonymous client has is read-only over one published commit (a request with an
 * Authorization header, which may call write tools, is never kept nor answered from here), so a
 * call's result is a function of the commit, the site's origin (its URLs) and the call's params;
 * the key also holds the headers the transport validates (Accept, Content-Type,
 * MCP-Protocol-Version), so a request is answered from here only if the very same request was
 * answered 200 by the real server before. Only the JSON-RPC id differs between hits; it is the
 * caller's. Errors (a protocol error, a bad request)
 * are never kept, and a miss goes through the SDK untouched.
 *
 * Two layers answer from here. The route (app/agents/mcp/route.ts) keeps every 200 result and
 * answers a kept one itself; the proxy (proxy.ts, `keptAnswerFor`) answers a kept one before the
 * request reaches the route at all, as it does for GET agent formats (lib/http/page-cache.ts),
 * because a kept answer through a route handler still cost half the server's throughput (Next's
 * request adaptation, streams and clones around a lookup). The two share the key (this module's
 * `toolCallOf`, main's commit read fresh from the ref, the origin by the route's own rule) and the
 * kept results: Next loads this module once per bundle layer, so they live in the read side's
 * state (lib/read-model/read-side.ts).
 */

const MCP_PATH = "/agents/mcp";
// Larger calls are not kept (a query is at most 500 characters, so a real call is far smaller).
const MAX_BODY = 16_384;
// A whole note's text can be large; such results are cheap to rebuild relative to their size.
const MAX_RESULT = 65_536;
// In the read side's state: the proxy and the route handler are separate bundle layers, each with
// its own copy of this module, and the proxy can only answer what the route kept.
export type KeptAgentAnswers = LRUCache<string, Buffer>;
const kept = (): KeptAgentAnswers => (readSide().mcp ??= new LRUCache<string, Buffer>({ max: 512 }));
// A kept result is its UTF-8 bytes, and an answer is those between the two ends: a 13 KB string
// body cost undici a well-formedness scan and an encoding on every answer (about 170 µs, a
// microbenchmark's figure), bytes next to nothing.
const RESULT_OPEN = Buffer.from('{"result":');

type Call = { key: string; id: string | number };

/**
 * The cache key and id of a single JSON-RPC `tools/call` request, or null for anything else. The
 * body is read from a clone: the transport reads the request itself afterwards.
 */
export function toolCallOf(request: Request, commit: string, origin: string): Promise<Call | null> {
  return callOf(request, commit, origin, () => request.clone().text());
}

async function callOf(request: Request, commit: string, origin: string, read: () => Promise<string>): Promise<Call | null> {
  // A client with a token has write tools, whose calls are never answered twice, and its token is
  // the route's to check: it always goes through the real server.
  if (request.headers.has("authorization")) return null;
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) return null;
  let message: unknown;
  try {
    const text = await read();
    if (text.length > MAX_BODY) return null;
    message = JSON.parse(text);
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { jsonrpc, method, id, params } = message as Record<string, unknown>;
  if (jsonrpc !== "2.0" || method !== "tools/call" || !(typeof id === "string" || typeof id === "number")) return null;
  if (!params || typeof params !== "object") return null;
  const h = request.headers;
  const key = JSON.stringify([commit, origin, h.get("accept"), h.get("content-type"), h.get("mcp-protocol-version"), params]);
  return { key, id };
}

export function keptAnswer(call: Call, commit: string): Response | null {
  const result = kept().get(call.key);
  if (result === undefined) return null;
  const body = Buffer.concat([RESULT_OPEN, result, Buffer.from(`,"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`)]);
  return new Response(body as Uint8Array<ArrayBuffer>, {
    status: 200,
    headers: { "Content-Type": "application/json", "X-Content-Commit": commit, "Cache-Control": "no-store" },
  });
}

/** Keep the result of the real server's 200 JSON answer to `call`. */
export function keepAnswer(call: Call, status: number, contentType: string | null, body: string): void {
  if (status !== 200 || !contentType?.startsWith("application/json")) return;
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return;
  }
  const { result, id } = (answer ?? {}) as { result?: unknown; id?: unknown };
  if (result === undefined || id !== call.id) return;
  const text = JSON.stringify(result);
  if (text.length > MAX_RESULT) return;
  kept().set(call.key, Buffer.from(text));
}

/**
 * For the proxy: the kept answer to this request if it is a single `tools/call` POSTed to the MCP
 * endpoint that the route already answered 200 for main's current commit, this origin and these
 * headers; null for anything else, which then goes on to the route unchanged. The route's checks
 * come first: a request from a foreign Host or Origin is left to the route, which refuses it with
 * its reason. Main's commit is read from the ref on every request, as the route's published view
 * reads it, so a commit made with plain git is a new key on the very next request.
 *
 * The body is read as it is, not from a clone: the proxy's request body is already its own copy
 * (Next's server tees the incoming body, one branch for the proxy, the other buffered and handed to
 * the route; next/dist/server/body-streams.js), so the route gets the whole body whether or not it
 * was read here (checked against a production server, chunked and up to 200 KB). Cloning it once
 * more (undici's Request and a stream tee) cost 50–80 µs a call, more than the whole lookup but for
 * reading main's ref.
 */
export async function keptAnswerFor(request: NextRequest): Promise<Response | null> {
  if (request.method !== "POST" || request.nextUrl.pathname !== MCP_PATH || kept().size === 0) return null;
  if (foreignReason(request.headers)) return null;
  let commit: string | null;
  let origin: string;
  try {
    commit = await servedCommit();
    origin = agentUrls(siteBase(request)).base;
  } catch {
    return null;
  }
  if (!commit) return null;
  const call = await callOf(request, commit, origin, () => request.text());
  return call && keptAnswer(call, commit);
}
