import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { ErrorCode, ListResourcesRequestSchema, McpError, type CallToolResult, type Resource } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PublishedView } from "@/lib/content/published";
import type { PhaseTitles } from "@/lib/phases/schema";
import { BOUNDARY_MEANING, noteIdSchema, STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { buildCapsule, capsuleMarkdown } from "./capsule";
import { MCP_SERVER } from "./discovery";
import { indexEntry, indexEntryMarkdown } from "./index-entry";
import { LIMIT_LEGEND, limitFlags, limitsOf } from "./limits";
import { registerChangesTool } from "./mcp-changes";
import { noteJson, noteMarkdown, noteText } from "./note-formats";
import { indexPage, INDEX_JSON_PAGE_SIZE, INDEX_PAGE_SIZE } from "@/lib/agents/index-cursor";
import { capsuleSchema, flagsSchema, indexEntrySchema, limitSchema, publishedStatusSchema, searchSchema } from "./schemas";
import { searchReady } from "@/lib/search";
import { agentSearch, SEARCH_LIMIT } from "./search";
import type { AgentUrls } from "./urls";
import { registerGoverningTool } from "./mcp-governing";

// The MCP specification's code for a resource that does not exist (resources/read); the SDK names none.
const RESOURCE_NOT_FOUND = -32002;

/**
 * The MCP server for one request: read-only tools and resources over the published view it was
 * built with, so every answer of a request comes from one commit. Tool results carry status,
 * boundaries and the limit flags as structured fields, validated against their output schemas.
 */

export const MCP_TOOLS = ["search_notes", "list_notes", "get_capsule", "get_note", "governing_notes"] as const;
export const MCP_PROMPTS = ["retrieval_protocol"] as const;
/** Resource URI templates: a note in each of its formats, and its capsule. */
export const NOTE_RESOURCE = (base: string) => `${base}/notes/{id}.{format}`;
export const CAPSULE_RESOURCE = (base: string) => `${base}/agents/capsules/{id}.{format}`;
/** How many note IDs a completion offers at most (the protocol's own cap is 100). */
const COMPLETIONS = 100;
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

// `count` is every note the filters match; `entries` one page of them, `next` the cursor of the following page.
const listSchema = z.object({ commit: z.string(), count: z.int(), entries: z.array(indexEntrySchema), next: z.string().nullable() }).strict();
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

// One JSON Schema validator for every server: each McpServer otherwise builds its own Ajv (with
// its formats and meta-schema), which was more than half of what building a server per request
// cost; the validator holds nothing of one request (it checks elicitation answers, which a
// read-only server never asks for).
const jsonSchemaValidator = new AjvJsonSchemaValidator();

// The tools' input schemas, built once: the SDK wraps a raw shape in a new z.object at every
// registration, and zod compiles a schema's parser on its first use, so a server built per request
// with inline shapes paid both on every call.
const searchInput = z.object({
  query: z.string().min(1).max(500).describe("Words of the task, e.g. 'transactional state'"),
  limit: z.int().min(1).max(SEARCH_LIMIT.max).optional().describe(`How many results (default ${SEARCH_LIMIT.default})`),
});
const listInput = z.object({
  status: publishedStatusSchema.optional(),
  tag: z.string().min(1).max(60).optional(),
  phase: z.string().min(1).max(120).optional().describe("e.g. '5' or 'Phase 5' or 'agent operations'"),
  cursor: z.string().min(1).max(40).optional().describe("The previous page's `next`, with the same filters; omit for the first page"),
});
const capsuleInput = z.object({ id: noteIdSchema.describe("A note ID such as AFN-016") });
const noteInput = z.object({ id: noteIdSchema, format: z.enum(["markdown", "text", "json"]).default("markdown") });

export function createAgentMcpServer(view: PublishedView, urls: AgentUrls, titles: PhaseTitles): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER.name, title: view.site.title, version: MCP_SERVER.version },
    {
      jsonSchemaValidator,
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
      inputSchema: searchInput,
      outputSchema: searchSchema,
      annotations: READ_ONLY,
    },
    async ({ query, limit }) => {
      await searchReady(view, titles);
      const doc = await agentSearch(view, urls, titles, query, limit ?? SEARCH_LIMIT.default);
      const lines = doc.results.map((r) => `${indexEntryMarkdown(view.byId.get(r.id) as Note, urls)}\n  Matched in ${r.field}: ${r.passage}`);
      return structured(doc, lines.length ? lines.join("\n") : `No published note matches "${query}".`);
    },
  );

  server.registerTool(
    "list_notes",
    {
      title: "List the published notes",
      description: `The compact index, optionally filtered by status, tag or phase (case-insensitive), ${INDEX_JSON_PAGE_SIZE} entries a page: pass the answer's \`next\` as \`cursor\` for the next page. To find a decision, search_notes is faster.`,
      inputSchema: listInput,
      outputSchema: listSchema,
      annotations: READ_ONLY,
    },
    async ({ status, tag, phase, cursor }) => {
      const notes = view.notes.filter(
        (n) =>
          (!status || n.status === status) &&
          (!tag || n.tags.some((t) => t.toLowerCase() === tag.trim().toLowerCase())) &&
          (!phase || samePhase(n.phase, phase)),
      );
      // Paged like /agents/index.json, for the same reason: one answer must fit what an agent reads in one go.
      const page = indexPage(notes, cursor ?? null, INDEX_JSON_PAGE_SIZE);
      if (!page.ok) return { isError: true, content: [{ type: "text", text: page.error }] };
      const doc = { commit: view.commit, count: notes.length, entries: page.notes.map((n) => indexEntry(n, urls, titles)), next: page.next };
      const lines = page.notes.map((n) => indexEntryMarkdown(n, urls));
      if (page.next)
        lines.push(`${notes.length} notes match; this page ends at ${page.next}. Call list_notes again with cursor "${page.next}" for the next page.`);
      return structured(doc, notes.length ? lines.join("\n") : "No published note matches these filters.");
    },
  );

  server.registerTool(
    "get_capsule",
    {
      title: "Read a note's retrieval capsule",
      description: "Decision, invariant, rejected shortcut, claim boundary, status and boundaries with their meaning, in at most 350 tokens.",
      inputSchema: capsuleInput,
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
      inputSchema: noteInput,
      outputSchema: noteResultSchema,
      annotations: READ_ONLY,
    },
    async ({ id, format }) => {
      const note = view.byId.get(id);
      if (!note) return unknown(id);
      const content =
        format === "json"
          ? JSON.stringify(noteJson(note, view, urls, titles), null, 2)
          : format === "text"
            ? noteText(note, view, urls, titles)
            : noteMarkdown(note, view, urls, titles, { pointer: false });
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

  registerChangesTool(server, view, urls);
  registerGoverningTool(server, view, urls);
  registerNoteResources(server, view, urls, titles);
  registerRetrievalPrompt(server, view, urls);
  return server;
}

/**
 * Every published note as resources: `{base}/notes/{id}.{format}` (md, txt, json) and
 * `{base}/agents/capsules/{id}.{format}` (md, json), the same URLs the site serves, advertised by
 * resources/templates/list; resources/list names each note's Markdown, a page at a time (below).
 * Note IDs and formats complete.
 */
function registerNoteResources(server: McpServer, view: PublishedView, urls: AgentUrls, titles: PhaseTitles) {
  const completeId = (value: string) => completeNoteId(view, value);
  const noteFormats = { md: "text/markdown", txt: "text/plain", json: "application/json" } as const;
  server.registerResource(
    "note",
    new ResourceTemplate(NOTE_RESOURCE(urls.base), {
      // Listed by the paged resources/list handler below, not through the template.
      list: undefined,
      complete: { id: completeId, format: (v) => Object.keys(noteFormats).filter((f) => f.startsWith(v.toLowerCase())) },
    }),
    { title: "A published note", description: "The full note as Markdown with front matter (md), LLM text (txt) or JSON (json).", mimeType: "text/markdown" },
    (uri, { id, format }) => {
      const note = view.byId.get(String(id));
      const f = String(format) as keyof typeof noteFormats;
      if (!note) throw new McpError(RESOURCE_NOT_FOUND, `No published note ${String(id)}; resources/list and list_notes name the published ones.`);
      if (!(f in noteFormats)) throw new McpError(ErrorCode.InvalidParams, `"${String(format)}" is not a note format; use md, txt or json.`);
      const text =
        f === "json"
          ? JSON.stringify(noteJson(note, view, urls, titles), null, 2)
          : f === "txt"
            ? noteText(note, view, urls, titles)
            : noteMarkdown(note, view, urls, titles, { pointer: false });
      return { contents: [{ uri: uri.href, mimeType: noteFormats[f], text }] };
    },
  );
  server.registerResource(
    "capsule",
    new ResourceTemplate(CAPSULE_RESOURCE(urls.base), {
      list: undefined,
      complete: { id: completeId, format: (v) => ["md", "json"].filter((f) => f.startsWith(v.toLowerCase())) },
    }),
    {
      title: "A note's retrieval capsule",
      description: "Decision, invariant, rejected shortcut, claim boundary, status and limits in at most 350 tokens (md or json).",
      mimeType: "text/markdown",
    },
    (uri, { id, format }) => {
      const note = view.byId.get(String(id));
      if (!note) throw new McpError(RESOURCE_NOT_FOUND, `No published note ${String(id)}; resources/list and list_notes name the published ones.`);
      if (format !== "md" && format !== "json") throw new McpError(ErrorCode.InvalidParams, `"${String(format)}" is not a capsule format; use md or json.`);
      const capsule = buildCapsule(note, view, urls);
      return format === "json"
        ? { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(capsule, null, 2) }] }
        : { contents: [{ uri: uri.href, mimeType: "text/markdown", text: capsuleMarkdown(capsule) }] };
    },
  );
  // The SDK answers resources/list with every template's whole list and ignores the cursor: at
  // 10,000 notes one answer of about 4 MB. Here a page of INDEX_PAGE_SIZE notes in the index's
  // order, with the spec's `nextCursor` (the last note's id, as the index's pages use).
  const noteResource = (n: Note): Resource => ({
    uri: urls.noteAs(n.id, "md"),
    name: n.id,
    title: n.title,
    description: `${[n.status, ...n.boundaries].join(", ")}. ${n.summary}`,
    mimeType: "text/markdown",
  });
  server.server.removeRequestHandler("resources/list");
  server.server.setRequestHandler(ListResourcesRequestSchema, ({ params }) => {
    const page = indexPage(view.notes, params?.cursor ?? null, INDEX_PAGE_SIZE);
    if (!page.ok) throw new McpError(ErrorCode.InvalidParams, page.error);
    return { resources: page.notes.map(noteResource), ...(page.next ? { nextCursor: page.next } : {}) };
  });
}

/**
 * The retrieval protocol as a prompt: the steps, the hard-boundary rules an answer must keep, and
 * the compact index to choose from (or, given a note ID, that note's capsule), for the task at hand.
 */
function registerRetrievalPrompt(server: McpServer, view: PublishedView, urls: AgentUrls) {
  server.registerPrompt(
    MCP_PROMPTS[0],
    {
      title: "Retrieve the right decision for a task",
      description: "The retrieval protocol and the hard-boundary rules, with the compact index (or one note's capsule) to work from.",
      argsSchema: {
        task: z.string().min(1).max(2000).describe("What you are working on, in a sentence or two"),
        id: completable(z.string().max(40).optional().describe("A note ID to start from, e.g. AFN-016 (optional)"), (value) =>
          completeNoteId(view, value ?? ""),
        ),
      },
    },
    ({ task, id }) => {
      const note = id ? view.byId.get(id.trim().toUpperCase()) : undefined;
      if (id && !note) throw new McpError(ErrorCode.InvalidParams, `No published note ${id}; leave id out to get the whole compact index.`);
      const rules = [
        ...LIMIT_LEGEND.map((l) => `- ${l.flag}: ${l.meaning}`),
        `- superseded: ${STATUS_MEANING.superseded}`,
        `- retracted: ${STATUS_MEANING.retracted}`,
      ];
      const material = note
        ? [`The capsule of ${note.id}:`, "", capsuleMarkdown(buildCapsule(note, view, urls))]
        : ["The compact index (one line per note, each linking its capsule):", "", ...view.notes.map((n) => indexEntryMarkdown(n, urls))];
      const text = [
        `Task: ${task.trim()}`,
        "",
        "Retrieval protocol for the Field Notes archive:",
        `1. ${view.site.agents.retrieval}`,
        "2. Pick from the compact index (or search_notes) the one note whose decision fits the task; read its capsule (get_capsule).",
        "3. Open the full note (get_note) only when the capsule's decision matches the task and you need its evidence.",
        "",
        "Hard-boundary rules: keep every limit of a note you use in what you write, and never present it as more than it is.",
        ...rules,
        "Do not cite a draft: only published notes exist here. Name the note ID and its status whenever you rely on a note.",
        "",
        ...material,
        "",
        `Built from commit ${view.commit}.`,
      ].join("\n");
      return { description: `Retrieval for: ${task.trim().slice(0, 80)}`, messages: [{ role: "user", content: { type: "text", text } }] };
    },
  );
}

/** Published note IDs that start with what was typed, case-insensitively ("016" finds AFN-016 too). */
export function completeNoteId(view: Pick<PublishedView, "notes">, typed: string): string[] {
  const v = typed.trim().toUpperCase();
  const ids = view.notes.map((n) => n.id).sort();
  const starts = ids.filter((id) => id.startsWith(v));
  const digits = v && /^\d+$/.test(v) ? ids.filter((id) => !id.startsWith(v) && id.split("-")[1]?.startsWith(v)) : [];
  return [...starts, ...digits].slice(0, COMPLETIONS);
}

function structured(data: object, text: string): CallToolResult {
  return { structuredContent: data as Record<string, unknown>, content: [{ type: "text", text }] };
}

function unknown(id: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: `No published note ${id}. list_notes shows the published ones.` }] };
}

/** "5", "Phase 5" and "phase 5" name the same phase. */
function samePhase(notePhase: string, asked: string): boolean {
  const norm = (s: string) =>
    s
      .trim()
      .toLowerCase()
      .replace(/^phase\s+/, "");
  return norm(notePhase) === norm(asked);
}
