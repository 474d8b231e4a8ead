/**
 * The MCP tools a client with an API token gets besides the read tools (app/agents/mcp/write-tools.ts
 * registers them), named here so the agent guide and its twin list them without importing the studio.
 */
export const MCP_WRITE_TOOLS = ["create_draft", "save_draft", "propose_hypothesis", "comment_on_draft", "request_review"] as const;
export type McpWriteTool = (typeof MCP_WRITE_TOOLS)[number];
