import { Lru } from "@/lib/store/lru";

/**
 * MCP tool results kept per commit, so a repeated `tools/call` (an agent searching again, many
 * agents asking the same) is answered without building an MCP server: building one and its
 * transport, and validating the result against the tool's output schema, cost 4–64 ms a request,
 * several times the search itself. This is the same per-commit caching `/agents/search.json` has.
 *
 * Every tool is read-only over one published commit, so a call's result is a function of the
 * commit, the site's origin (its URLs) and the call's params; the key also holds the headers the
 * transport validates (Accept, Content-Type, MCP-Protocol-Version), so a request is answered from
 * here only if the very same request was answered 200 by the real server before. Only the
 * JSON-RPC id differs between hits; it is the caller's. Errors (a protocol error, a bad request)
 * are never kept, and a miss goes through the SDK untouched.
 */

// Larger calls are not kept (a query is at most 500 characters, so a real call is far smaller).
const MAX_BODY = 16_384;
// A whole note's text can be large; such results are cheap to rebuild relative to their size.
const MAX_RESULT = 65_536;
const kept = new Lru<string, string>(512);

type Call = { key: string; id: string | number };

/** The cache key and id of a single JSON-RPC `tools/call` request, or null for anything else. */
export async function toolCallOf(request: Request, commit: string, origin: string): Promise<Call | null> {
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) return null;
  let message: unknown;
  try {
    const text = await request.clone().text();
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
  const result = kept.get(call.key);
  if (result === undefined) return null;
  const body = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(call.id)}}`;
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json", "X-Content-Commit": commit, "Cache-Control": "no-store" } });
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
  kept.set(call.key, text);
}
