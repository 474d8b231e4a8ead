import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { PublishedView } from "@/lib/content/published";
import { lastChanges } from "@/lib/content/last-change";
import { GOVERNING_LIMITS, governingNotes, governingText } from "./governing";
import { queryFromDiff, queryFromParams } from "./governing-request";
import { governingSchema } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * The MCP tool `governing_notes`: the same question and answer as /agents/governing.json, for
 * paths, components or a unified diff. Registered by lib/agents/mcp.ts.
 */

export const GOVERNING_TOOL = "governing_notes";

const governingInput = z.object({
  paths: z
    .array(z.string().min(1).max(GOVERNING_LIMITS.pathLength))
    .max(GOVERNING_LIMITS.paths)
    .optional()
    .describe("Repository paths the change touches, e.g. ['src/cache/lru.ts']"),
  components: z.array(z.string().min(1).max(100)).max(GOVERNING_LIMITS.components).optional().describe("Named components, e.g. ['search index']"),
  diff: z.string().max(GOVERNING_LIMITS.diffBytes).optional().describe("A unified diff (git diff's output); its files' paths are added to `paths`"),
});

export function registerGoverningTool(server: McpServer, view: PublishedView, urls: AgentUrls): void {
  server.registerTool(
    GOVERNING_TOOL,
    {
      title: "Which decisions govern this change",
      description:
        "The published notes in force whose `affects` match the paths, components or diff you give: strongest status first, each with its boundaries, invariant and claim boundary in full, the paths it matched and citation URLs pinned to its revision. Superseded and retracted notes are listed apart under `replaced`, naming their successor. Call it before changing code.",
      inputSchema: governingInput,
      outputSchema: governingSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ paths, components, diff }) => {
      const params = new URLSearchParams();
      for (const p of paths ?? []) params.append("path", p);
      for (const c of components ?? []) params.append("component", c);
      const fromDiff = diff ? queryFromDiff(diff) : null;
      if (fromDiff && !fromDiff.ok) return { isError: true, content: [{ type: "text", text: fromDiff.error }] };
      if (fromDiff) for (const p of fromDiff.query.paths) params.append("path", p);
      const asked = queryFromParams(params);
      if (!asked.ok) return { isError: true, content: [{ type: "text", text: asked.error }] };
      const doc = governingNotes(view, urls, await lastChanges(view), asked.query);
      return { structuredContent: doc, content: [{ type: "text", text: governingText(doc) }] };
    },
  );
}
