import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { MCP_WRITE_TOOLS, type McpWriteTool } from "@/lib/agents/mcp-write-names";
import { noteViewBody, reviewWriteBody, savedNoteBody } from "@/lib/validations/answers";
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

type Handler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;
/** How a tool reaches the studio: the handler, and the path and body of the request it would answer. */
type StudioCall = { handler: Handler; method?: "POST" | "PUT"; path: string; id?: string; body: unknown };

const WRITE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
const noteIdInput = z.string().min(1).max(40).describe("The note's ID, e.g. AFN-022 (create_draft answers it)");

// The input schemas are the studio's request bodies plus the note's ID; the route parses the body again with the same schema.
const createInput = createNoteRequest;
const saveInput = z.object({ id: noteIdInput, ...saveDraftRequest.shape });
const proposeInput = z.object({ id: noteIdInput, revision: saveDraftRequest.shape.revision });
const commentInput = z.object({ id: noteIdInput, ...startThreadRequest.shape });
const reviewInput = z.object({ id: noteIdInput, ...reviewRequestBody.shape });

export function registerWriteTools(server: McpServer, origin: string, authorization: string): void {
  const call = async ({ handler, method = "POST", path, id, body }: StudioCall): Promise<CallToolResult> => {
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
    (body) => call({ handler: notes.POST as Handler, path: "/api/studio/notes", body }),
  );

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
    ({ id, ...body }) => call({ handler: note.PUT as Handler, method: "PUT", path: `/api/studio/notes/${encodeURIComponent(id)}`, id, body }),
  );

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
      call({ handler: transitions.POST as Handler, path: `/api/studio/notes/${encodeURIComponent(id)}/transitions`, id, body: { to: "hypothesis", revision } }),
  );

  server.registerTool(
    "comment_on_draft",
    {
      title: "Comment on a draft",
      description: "Open a review thread on one section of the note's revision, optionally quoting the passage it is about.",
      inputSchema: commentInput,
      outputSchema: reviewWriteBody,
      annotations: WRITE,
    },
    ({ id, ...body }) => call({ handler: threads.POST as Handler, path: `/api/studio/notes/${encodeURIComponent(id)}/threads`, id, body }),
  );

  server.registerTool(
    "request_review",
    {
      title: "Ask for a review",
      description: "Ask the named reviewers (account names), or any reviewer when none is named, to review the note's current revision.",
      inputSchema: reviewInput,
      outputSchema: reviewWriteBody,
      annotations: WRITE,
    },
    ({ id, ...body }) => call({ handler: reviewRequests.POST as Handler, path: `/api/studio/notes/${encodeURIComponent(id)}/review-requests`, id, body }),
  );
}

/**
 * The write tool a single JSON-RPC `tools/call` names, or null: an anonymous client's call of one
 * is refused before any server is built (the tool is not even listed for it).
 */
export async function writeToolCalled(request: Request): Promise<{ tool: McpWriteTool; id: string | number | null } | null> {
  let message: unknown;
  try {
    message = JSON.parse(await request.clone().text());
  } catch {
    return null;
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) return null;
  const { method, params, id } = message as { method?: unknown; params?: { name?: unknown }; id?: unknown };
  if (method !== "tools/call" || !MCP_WRITE_TOOLS.includes(params?.name as McpWriteTool)) return null;
  return { tool: params?.name as McpWriteTool, id: typeof id === "string" || typeof id === "number" ? id : null };
}
