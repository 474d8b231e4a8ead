import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getPublishedView } from "@/lib/content/published";
import { phaseTitlesAt } from "@/lib/content/phases";
import { siteBase } from "@/lib/agents/http";
import { createAgentMcpServer } from "@/lib/agents/mcp";
import { keepAnswer, keptAnswer, toolCallOf } from "@/lib/agents/mcp-answers";
import { foreignReason } from "@/lib/agents/own-origin";
import { agentUrls } from "@/lib/agents/urls";
import { ApiError } from "@/lib/rules/api-errors";
import { tokenActor } from "@/lib/auth/actor";
import type { StudioActor } from "@/lib/rules/identity";
import { refusedWriteCall, registerWriteTools } from "./write-tools";

/**
 * The MCP endpoint (Streamable HTTP, stateless): every POST gets a new server and transport over
 * the current published view, answered as JSON. There are no sessions and no server-sent streams,
 * so GET and DELETE are 405. A client sending the studio API's bearer token also gets the write
 * tools its role may call (./write-tools.ts), which go through the studio's own route handlers; an
 * anonymous one gets the read tools only, a call of any other tool is a JSON-RPC error naming the
 * tool and the role, and a bad token is a 401.
 */

export const dynamic = "force-dynamic";

export async function POST(request: Request): Promise<Response> {
  const foreign = foreignReason(request.headers);
  if (foreign) return rpcError(403, -32000, `Forbidden: ${foreign}`);

  let actor: StudioActor | null;
  try {
    actor = await tokenActor(request);
  } catch (e) {
    if (e instanceof ApiError) return rpcError(e.status, -32001, `Unauthorized: ${e.message}`, { "WWW-Authenticate": 'Bearer realm="field-notes"' });
    return rpcError(503, -32603, `the accounts could not be read to check this token: ${(e as Error).message}`);
  }
  const refused = await refusedWriteCall(request, actor?.role ?? null);
  if (refused) return refused;

  let view;
  let urls;
  try {
    urls = agentUrls(siteBase(request));
    view = await getPublishedView();
  } catch (e) {
    return rpcError(503, -32603, `the published notes are unavailable: ${(e as Error).message}`);
  }
  // A tool call answered before on this commit needs no server (lib/agents/mcp-answers.ts). The
  // proxy answers most of these before they get here; this one was kept since the proxy looked.
  const call = await toolCallOf(request, view.commit, urls.base);
  const known = call && keptAnswer(call, view.commit);
  if (known) return known;
  const server = createAgentMcpServer(view, urls, await phaseTitlesAt(view.commit));
  const authorization = request.headers.get("authorization");
  if (actor && authorization) registerWriteTools(server, urls.base, authorization, actor.role);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  try {
    await server.connect(transport);
    const response = await transport.handleRequest(request);
    const headers = new Headers(response.headers);
    headers.set("X-Content-Commit", view.commit);
    headers.set("Cache-Control", "no-store");
    if (!call) return new Response(response.body, { status: response.status, headers });
    const body = await response.text();
    keepAnswer(call, response.status, response.headers.get("content-type"), body);
    return new Response(body, { status: response.status, headers });
  } catch (e) {
    console.error("MCP request failed", e);
    return rpcError(500, -32603, `Internal error: ${(e as Error).message}`);
  } finally {
    // The JSON answer is complete once handleRequest resolves: nothing outlives the request.
    await server.close();
  }
}

export function GET(): Response {
  return rpcError(405, -32000, "Method not allowed: this endpoint is stateless; POST JSON-RPC messages to it", { Allow: "POST" });
}

export const DELETE = GET;

function rpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers: { ...headers, "Cache-Control": "no-store" } });
}
