import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteFile } from "@/lib/store/testing";
import { commitWithGit as commitWithGitTo } from "@/lib/testing/plain-git";

/**
 * MCP tool calls answered from the per-commit kept answers (lib/agents/mcp-answers.ts), through the
 * real route handler, a real MCP client and a real repository changed with plain git: a repeated
 * call gets the same result under its own id, a new commit is seen at once, and the transport's
 * checks still refuse a request the real server would refuse.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-mcp-answers-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

let post: (request: Request) => Promise<Response>;
beforeAll(async () => {
  post = (await import("@/app/agents/mcp/route")).POST;
});

const HEADERS = { host: "notes.test:3000", "content-type": "application/json", accept: "application/json, text/event-stream" };
const call = (id: number, query: string, headers: Record<string, string> = HEADERS) =>
  post(
    new Request(`${SITE}/agents/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_notes", arguments: { query } } }),
    }),
  );

const commitWithGit = (files: Record<string, string>) => commitWithGitTo(path.join(dataDir, "content.git"), files);

type Answer = { id: number; result: { structuredContent: { commit: string; results: { id: string }[] } } };

describe("a repeated MCP tool call", () => {
  it("gets the same result under its own id, and a new commit's result after a plain-git commit", async () => {
    const first = (await (await call(1, "zanzibar ledger")).json()) as Answer;
    const again = await call(2, "zanzibar ledger");
    expect(again.status).toBe(200);
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    const second = (await again.json()) as Answer;
    expect(second.id).toBe(2);
    expect(second.result).toEqual(first.result);
    expect(first.result.structuredContent.results).toEqual([]);

    commitWithGit({ "notes/AFN-904.md": noteFile("AFN-904", "Zanzibar ledger, published.") });
    const after = (await (await call(3, "zanzibar ledger")).json()) as Answer;
    expect(after.result.structuredContent.commit).not.toBe(first.result.structuredContent.commit);
    expect(after.result.structuredContent.results.map((r) => r.id)).toEqual(["AFN-904"]);
  });

  it("is still refused when the transport would refuse it, and works for a real client", async () => {
    await call(4, "sparse attention");
    const refused = await call(5, "sparse attention", { ...HEADERS, accept: "application/json" });
    expect(refused.status).toBe(406);

    const client = new Client({ name: "mcp-answers-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${SITE}/agents/mcp`), {
        fetch: (url, init) => post(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "notes.test:3000" } })),
      }),
    );
    for (let i = 0; i < 2; i++) {
      const result = await client.callTool({ name: "search_notes", arguments: { query: "sparse attention" } });
      expect((result.structuredContent as { results: { id: string }[] }).results[0]?.id).toBe("AFN-016");
    }
    await client.close();
  });
});
