import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PublishedView } from "@/lib/content/published";
import { BOUNDARY_MEANING, noteIdSchema, STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { buildCapsule, capsuleMarkdown } from "./capsule";
import { indexEntry, indexEntryMarkdown } from "./index-entry";
import { LIMIT_LEGEND, limitFlags, limitsOf } from "./limits";
import { noteJson, noteMarkdown, noteText } from "./note-formats";
import { capsuleSchema, flagsSchema, indexEntrySchema, limitSchema, publishedStatusSchema, searchSchema } from "./schemas";
import { agentSearch, SEARCH_LIMIT } from "./search";
import type { AgentUrls } from "./urls";

/**
 * The MCP server for one request: read-only tools and resources over the published view it was
 * built with, so every answer of a request comes from one commit. Tool results carry status,
 * boundaries and the limit flags as structured fields, validated against their output schemas.
 */

export const MCP_TOOLS = ["search_notes", "list_notes", "get_capsule", "get_note"] as const;
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

const listSchema = z.object({ commit: z.string(), count: z.int(), entries: z.array(indexEntrySchema) }).strict();
const noteResultSchema = z
  .object({
    commit: z.string(),
    id: noteIdSchema,
    format: z.enum(["markdown", "text", "json"]),
    status: publishedStatusSchema,
    status_meaning: z.string(),
    boundaries: z.array(z.object({ boundary: z.string(), meaning: z.string() }).strict()),
    flags: flagsSchema,
    limits: z.array(limitSchema),
    content: z.string(),
  })
  .strict();

export function createAgentMcpServer(view: PublishedView, urls: AgentUrls): McpServer {
  const server = new McpServer(
    { name: "field-notes", title: view.site.title, version: "1.0.0" },
    {
      instructions:
        `${view.site.agents.retrieval} Use search_notes or list_notes, then get_capsule, then get_note only when the decision matches. ` +
        `Hard limits: ${LIMIT_LEGEND.map((l) => `${l.flag}: ${l.meaning}`).join(" ")} Built from commit ${view.commit}.`,
    },
  );

  server.registerTool(
    "search_notes",
    {
      title: "Search the published notes",
      description: "Full-text search over every field of the published notes; returns ranked compact index entries with the passage that matched.",
      inputSchema: {
        query: z.string().min(1).max(500).describe("Words of the task, e.g. 'transactional state'"),
        limit: z.int().min(1).max(SEARCH_LIMIT.max).optional().describe(`How many results (default ${SEARCH_LIMIT.default})`),
      },
      outputSchema: searchSchema,
      annotations: READ_ONLY,
    },
    async ({ query, limit }) => {
      const doc = agentSearch(view, urls, query, limit ?? SEARCH_LIMIT.default);
      const lines = doc.results.map((r) => `${indexEntryMarkdown(view.byId.get(r.id) as Note)}\n  Matched in ${r.field}: ${r.passage}`);
      return structured(doc, lines.length ? lines.join("\n") : `No published note matches "${query}".`);
    },
  );

  server.registerTool(
    "list_notes",
    {
      title: "List the published notes",
      description: "The compact index, optionally filtered by status, tag or phase (case-insensitive).",
      inputSchema: {
        status: publishedStatusSchema.optional(),
        tag: z.string().min(1).max(60).optional(),
        phase: z.string().min(1).max(120).optional().describe("e.g. '5' or 'Phase 5' or 'agent operations'"),
      },
      outputSchema: listSchema,
      annotations: READ_ONLY,
    },
    async ({ status, tag, phase }) => {
      const notes = view.notes.filter(
        (n) =>
          (!status || n.status === status) &&
          (!tag || n.tags.some((t) => t.toLowerCase() === tag.trim().toLowerCase())) &&
          (!phase || samePhase(n.phase, phase)),
      );
      const doc = { commit: view.commit, count: notes.length, entries: notes.map((n) => indexEntry(n, urls)) };
      return structured(doc, notes.length ? notes.map(indexEntryMarkdown).join("\n") : "No published note matches these filters.");
    },
  );

  server.registerTool(
    "get_capsule",
    {
      title: "Read a note's retrieval capsule",
      description: "Decision, invariant, rejected shortcut, claim boundary, status and boundaries with their meaning, in at most 350 tokens.",
      inputSchema: { id: noteIdSchema.describe("A note ID such as AFN-016") },
      outputSchema: capsuleSchema,
      annotations: READ_ONLY,
    },
    async ({ id }) => {
      const note = view.byId.get(id);
      if (!note) return unknown(id);
      const capsule = buildCapsule(note, view, urls);
      return structured(capsule, capsuleMarkdown(capsule));
    },
  );

  server.registerTool(
    "get_note",
    {
      title: "Read a whole note",
      description: "The full note as Markdown (with front matter), plain text or JSON. Open it only when the capsule's decision matches the task.",
      inputSchema: { id: noteIdSchema, format: z.enum(["markdown", "text", "json"]).default("markdown") },
      outputSchema: noteResultSchema,
      annotations: READ_ONLY,
    },
    async ({ id, format }) => {
      const note = view.byId.get(id);
      if (!note) return unknown(id);
      const content =
        format === "json"
          ? JSON.stringify(noteJson(note, view, urls), null, 2)
          : format === "text"
            ? noteText(note, view, urls)
            : noteMarkdown(note, view);
      const result = {
        commit: view.commit,
        id,
        format,
        status: note.status as z.infer<typeof publishedStatusSchema>,
        status_meaning: STATUS_MEANING[note.status],
        boundaries: note.boundaries.map((b) => ({ boundary: b, meaning: BOUNDARY_MEANING[b] })),
        flags: limitFlags(note),
        limits: limitsOf(note),
        content,
      };
      return structured(result, content);
    },
  );

  for (const note of view.notes) {
    server.registerResource(
      note.id,
      urls.noteAs(note.id, "md"),
      { title: note.title, description: `${note.status}${note.boundaries.map((b) => `, ${b}`).join("")}. ${note.summary}`, mimeType: "text/markdown" },
      async (uri) => ({ contents: [{ uri: uri.href, mimeType: "text/markdown", text: noteMarkdown(note, view) }] }),
    );
  }
  return server;
}

function structured(data: object, text: string): CallToolResult {
  return { structuredContent: data as Record<string, unknown>, content: [{ type: "text", text }] };
}

function unknown(id: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `No published note ${id}. list_notes shows the published ones.` }] };
}

/** "5", "Phase 5" and "phase 5" name the same phase. */
function samePhase(notePhase: string, asked: string): boolean {
  const norm = (s: string) => s.trim().toLowerCase().replace(/^phase\s+/, "");
  return norm(notePhase) === norm(asked);
}
