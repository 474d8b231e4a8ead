import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MCP_WRITE_TOOLS, type McpWriteTool } from "@/lib/agents/mcp-write-names";
import { noteViewBody, reviewWriteBody, savedNoteBody } from "@/lib/validations/answers";
import type { StudioHandler } from "@/lib/api/route";
import { roleMay } from "@/lib/rules/roles";
import type { Role } from "@/lib/rules/status-machine";
import { createNoteRequest, saveDraftRequest } from "@/lib/validations/studio";
import { reviewRequestBody, startThreadRequest } from "@/lib/validations/review";
import * as notes from "@/app/api/studio/notes/route";
import * as note from "@/app/api/studio/notes/[id]/route";
import * as transitions from "@/app/api/studio/notes/[id]/transitions/route";
import * as threads from "@/app/api/studio/notes/[id]/threads/route";
import * as reviewRequests from "@/app/api/studio/notes/[id]/review-requests/route";

/**
 * The write tools an MCP client gets with an API token: create a draft, save it, propose it as a
 * hypothesis, comment on it, ask for a review. Each is one call of the studio API's own route
 * handler (app/api/studio/*), with the client's Authorization header, so the role check, the
 * body's schema, the acceptance function and the stale-revision check are the studio's, and the
 * answer is the studio's body: a success as the tool's structured content, a refusal as a tool
 * error carrying the whole error body (a stale save: `theirs`, `yours` and `base`). Nothing here
 * publishes: a person does that in the studio, after a review.
 */

/** How a tool reaches the studio: the tool, and the path and body of the request its route would answer. */
type StudioCall = { tool: McpWriteTool; method?: "POST" | "PUT"; path: string; id?: string; body: unknown };

/**
 * The studio route each tool calls. Who may call a tool is who may call its route: the role the
 * route declares (`route({ role })`), read from the handler, so the rule is written once.
 */
const ROUTE_OF: Record<McpWriteTool, StudioHandler> = {
  create_draft: notes.POST,
  save_draft: note.PUT,
  propose_hypothesis: transitions.POST,
  comment_on_draft: threads.POST,
  request_review: reviewRequests.POST,
};

/** The write tools a token of this role may call (none without a token), in the guide's order. */
export function writeToolsFor(role: Role | null): McpWriteTool[] {
  return role === null ? [] : MCP_WRITE_TOOLS.filter((tool) => roleMay(role, ROUTE_OF[tool].role));
}

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const noteIdInput = z.string().min(1).max(40).describe("The note's ID, e.g. AFN-022 (create_draft answers it)");

// The input schemas are the studio's request bodies plus the note's ID; the route parses the body again with the same schema.
const createInput = createNoteRequest;
const saveInput = z.object({ id: noteIdInput, ...saveDraftRequest.shape });
const proposeInput = z.object({ id: noteIdInput, revision: saveDraftRequest.shape.revision });
const commentInput = z.object({ id: noteIdInput, ...startThreadRequest.shape });
const reviewInput = z.object({ id: noteIdInput, ...reviewRequestBody.shape });

/** The write tools each role's token is offered, for the agent guide and its twin. */
export const WRITE_TOOLS_BY_ROLE: Readonly<Record<Role, readonly McpWriteTool[]>> = { author: writeToolsFor("author"), reviewer: writeToolsFor("reviewer") };

/** Registers the write tools `role` may call, each calling its studio route with `authorization`. */
export function registerWriteTools(server: McpServer, origin: string, authorization: string, role: Role): void {
  const offered = new Set(writeToolsFor(role));
  const call = async ({ tool, method = "POST", path, id, body }: StudioCall): Promise<CallToolResult> => {
    const handler = ROUTE_OF[tool];
    const request = new Request(`${origin}${path}`, {
      method,
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const response = await handler(request, { params: Promise.resolve<Record<string, string>>(id === undefined ? {} : { id }) });
    const answer = (await response.json()) as Record<string, unknown>;
    if (response.ok) return { structuredContent: answer, content: [{ type: "text", text: JSON.stringify(answer) }] };
    const error = answer.error as { message?: string } | undefined;
    return {
      isError: true,
      content: [
        { type: "text", text: `${response.status} ${error?.message ?? "the studio refused this request"}` },
        { type: "text", text: JSON.stringify(answer) },
      ],
    };
  };
  if (offered.has("create_draft"))
    server.registerTool(
      "create_draft",
      {
        title: "Create a draft note",
        description:
          "A new draft with the next free note ID, optionally with its first fields (judged by the same rules as a save). Answers the draft with its `id` and `revision`; pass the revision to save_draft. Drafts are never public.",
        inputSchema: createInput,
        outputSchema: noteViewBody,
        annotations: WRITE,
      },
      (body) => call({ tool: "create_draft", path: "/api/studio/notes", body }),
    );

  if (offered.has("save_draft"))
    server.registerTool(
      "save_draft",
      {
        title: "Save a draft",
        description:
          "Save the note's fields as a new draft revision. `revision` is the one you read; if the draft moved since, nothing is written and the error carries both versions (`theirs`, `yours`, and `base`, the one you started from).",
        inputSchema: saveInput,
        outputSchema: savedNoteBody,
        annotations: WRITE,
      },
      ({ id, ...body }) => call({ tool: "save_draft", method: "PUT", path: `/api/studio/notes/${encodeURIComponent(id)}`, id, body }),
    );

  if (offered.has("propose_hypothesis"))
    server.registerTool(
      "propose_hypothesis",
      {
        title: "Propose a draft as a hypothesis",
        description:
          "Move the draft at `revision` to status hypothesis, judged by the status machine. It stays a draft revision: a person publishes it after review.",
        inputSchema: proposeInput,
        outputSchema: noteViewBody,
        annotations: WRITE,
      },
      ({ id, revision }) =>
        call({ tool: "propose_hypothesis", path: `/api/studio/notes/${encodeURIComponent(id)}/transitions`, id, body: { to: "hypothesis", revision } }),
    );

  if (offered.has("comment_on_draft"))
    server.registerTool(
      "comment_on_draft",
      {
        title: "Comment on a draft",
        description: "Open a review thread on one section of the note's revision, optionally quoting the passage it is about.",
        inputSchema: commentInput,
        outputSchema: reviewWriteBody,
        annotations: WRITE,
      },
      ({ id, ...body }) => call({ tool: "comment_on_draft", path: `/api/studio/notes/${encodeURIComponent(id)}/threads`, id, body }),
    );

  if (offered.has("request_review"))
    server.registerTool(
      "request_review",
      {
        title: "Ask for a review",
        description: "Ask the named reviewers (account names), or any reviewer when none is named, to review the note's current revision.",
        inputSchema: reviewInput,
        outputSchema: reviewWriteBody,
        annotations: WRITE,
      },
      ({ id, ...body }) => call({ tool: "request_review", path: `/api/studio/notes/${encodeURIComponent(id)}/review-requests`, id, body }),
    );
}

/**
 * The answer to a single JSON-RPC `tools/call` of a write tool this client may not call, or null:
 * an anonymous client may call none, a token the tools its role may. The error is the one the SDK
 * gives a tool it does not know (-32602), naming the tool, the role and what would be needed; it
 * is answered before any server is built, and nothing is written.
 */
export async function refusedWriteCall(request: Request, role: Role | null): Promise<Response | null> {
  let message: unknown;
  try {
    message = JSON.parse(await request.clone().text());
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, params, id } = message as { method?: unknown; params?: { name?: unknown }; id?: unknown };
  const tool = params?.name as McpWriteTool;
  if (method !== "tools/call" || !MCP_WRITE_TOOLS.includes(tool) || writeToolsFor(role).includes(tool)) return null;
  const needs = ROUTE_OF[tool].role;
  const whose = needs ? `an ${needs}'s` : "a signed-in account's";
  const offered = writeToolsFor(role);
  const text =
    role === null
      ? `${tool} is not offered to an anonymous client: it writes to the archive and needs ${whose} API token (send Authorization: Bearer <token>, a token from \`npm run user -- token <name>\`). Without one this endpoint offers the read tools only.`
      : `${tool} is not offered to a ${role}'s token: it is ${whose} tool, as its studio route is. This token may call ${offered.length ? `${offered.join(", ")} and ` : ""}the read tools.`;
  const rpcId = typeof id === "string" || typeof id === "number" ? id : null;
  return Response.json(
    { jsonrpc: "2.0", id: rpcId, error: { code: -32602, message: text, data: { tool, role: role ?? "anonymous", needs: needs ?? "signed-in" } } },
    { headers: { "Cache-Control": "no-store" } },
  );
}
