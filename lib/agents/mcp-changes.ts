import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { PublishedView } from "@/lib/content/published";
import { changesSince } from "./changes";
import { changesSchema } from "./schemas";
import type { AgentUrls } from "./urls";

/** MCP `changes_since`: the same answer as /agents/changes.json?since=<commit> (lib/agents/changes.ts). */

export const CHANGES_TOOL = "changes_since";

const changesInput = z.object({
  since: z.string().min(1).max(80).describe("The commit you last read (the `commit` of an earlier answer, or its X-Content-Commit)"),
  cursor: z.string().min(1).max(40).optional().describe("The previous page's `next`, with the same `since`; omit for the first page"),
});

export function registerChangesTool(server: McpServer, view: PublishedView, urls: AgentUrls): void {
  server.registerTool(
    CHANGES_TOOL,
    {
      title: "What changed since a commit",
      description:
        "The published notes added, changed (which fields), re-statused, superseded, retracted or removed between a commit you read and main, with main's commit to keep for next time. Paged: pass `next` as `cursor`.",
      inputSchema: changesInput,
      outputSchema: changesSchema,
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async ({ since, cursor }) => {
      const answer = await changesSince(view, urls, since, cursor ?? null);
      if (!answer.ok) return { isError: true, content: [{ type: "text", text: answer.error }] };
      const { doc } = answer;
      const lines = doc.changes.map((c) => `- ${c.id} ${c.kind}${c.fields.length ? ` (${c.fields.join(", ")})` : ""}: ${c.title}`);
      if (doc.next) lines.push(`${doc.count} notes changed; this page ends at ${doc.next}. Call changes_since again with cursor "${doc.next}".`);
      const head = doc.count
        ? `${doc.count} published notes changed from ${doc.since.slice(0, 7)} to ${doc.commit.slice(0, 7)}:`
        : `No published note changed from ${doc.since.slice(0, 7)} to ${doc.commit.slice(0, 7)}.`;
      return { structuredContent: doc as unknown as Record<string, unknown>, content: [{ type: "text", text: [head, ...lines].join("\n") }] };
    },
  );
}
