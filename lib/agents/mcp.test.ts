import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The MCP additions as a client meets them: the SDK's Client over Streamable HTTP, talking to the
 * real route handler over a real content repository seeded from content/. Notes and capsules as
 * resource templates read in each format, note-ID completion, the retrieval prompt, and an output
 * schema with structured content for every tool.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-mcp-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;

let mcpPost: (request: Request) => Promise<Response>;
let client: Client;

beforeAll(async () => {
  mcpPost = (await import("@/app/agents/mcp/route")).POST;
  client = new Client({ name: "mcp-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${SITE}/agents/mcp`), {
    fetch: (url, init) => mcpPost(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "notes.test:3000" } })),
  });
  await client.connect(transport);
}, 60_000);

afterAll(async () => {
  await client?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("MCP resources", () => {
  it("advertises a note template and a capsule template, and lists every note's Markdown", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([`${SITE}/agents/capsules/{id}.{format}`, `${SITE}/notes/{id}.{format}`]);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`${SITE}/notes/AFN-016.md`);
    expect(resources).toHaveLength(21);
    expect(resources.find((r) => r.uri.endsWith("AFN-003.md"))?.description).toMatch(/^verified-structural, structural-only\. /);
  });

  it("reads a note in each format and a capsule in each format through the templates", async () => {
    const read = async (uri: string) => (await client.readResource({ uri })).contents[0] as { uri: string; mimeType: string; text: string };
    const md = await read(`${SITE}/notes/AFN-016.md`);
    expect(md.mimeType).toBe("text/markdown");
    expect(md.text).toMatch(/^---\nid: AFN-016\n/);
    const txt = await read(`${SITE}/notes/AFN-016.txt`);
    expect(txt.mimeType).toBe("text/plain");
    expect(txt.text.startsWith("AFN-016: A sparse mask is not sparse attention\n")).toBe(true);
    const json = await read(`${SITE}/notes/AFN-003.json`);
    expect(JSON.parse(json.text)).toMatchObject({ id: "AFN-003", flags: { structural_only: true } });
    const capsuleMd = await read(`${SITE}/agents/capsules/AFN-010.md`);
    expect(capsuleMd.text).toMatch(/^# AFN-010: /);
    const capsuleJson = await read(`${SITE}/agents/capsules/AFN-010.json`);
    expect(JSON.parse(capsuleJson.text).decision).toMatch(/^Make the whole inference chunk one transaction\./);
  });

  it("refuses an unknown note or format with a message that says which", async () => {
    // The specification's codes: -32002 for a resource that does not exist, -32602 for a bad argument (not -32603, an internal error).
    await expect(client.readResource({ uri: `${SITE}/notes/AFN-999.md` })).rejects.toMatchObject({ code: -32002, message: expect.stringMatching(/AFN-999/) });
    await expect(client.readResource({ uri: `${SITE}/notes/AFN-016.pdf` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/pdf.*md, txt or json/),
    });
  });
});

describe("MCP completion", () => {
  it("completes note IDs in the note template, by prefix or by number", async () => {
    const ref = { type: "ref/resource" as const, uri: `${SITE}/notes/{id}.{format}` };
    const byPrefix = await client.complete({ ref, argument: { name: "id", value: "AFN-01" } });
    expect(byPrefix.completion.values).toEqual(["AFN-010", "AFN-011", "AFN-012", "AFN-013", "AFN-014", "AFN-015", "AFN-016", "AFN-017", "AFN-018", "AFN-019"]);
    const byNumber = await client.complete({ ref, argument: { name: "id", value: "016" } });
    expect(byNumber.completion.values).toEqual(["AFN-016"]);
    const format = await client.complete({ ref, argument: { name: "format", value: "j" } });
    expect(format.completion.values).toEqual(["json"]);
  });

  it("completes the note ID argument of the retrieval prompt", async () => {
    const done = await client.complete({ ref: { type: "ref/prompt", name: "retrieval_protocol" }, argument: { name: "id", value: "afn-02" } });
    expect(done.completion.values).toEqual(["AFN-020", "AFN-021"]);
  });
});

describe("MCP prompts", () => {
  it("lists the retrieval prompt with its arguments", async () => {
    const { prompts } = await client.listPrompts();
    const prompt = prompts.find((p) => p.name === "retrieval_protocol");
    expect(prompt?.arguments?.map((a) => [a.name, a.required ?? false])).toEqual([
      ["task", true],
      ["id", false],
    ]);
  });

  it("carries the protocol, every hard-boundary rule and the index; with an ID, that note's capsule", async () => {
    const plain = await client.getPrompt({ name: "retrieval_protocol", arguments: { task: "make a chunk of inference transactional" } });
    const text = (plain.messages[0]?.content as { text: string }).text;
    expect(text).toContain("Task: make a chunk of inference transactional");
    expect(text).toContain("Start from the compact index, load one retrieval capsule");
    for (const rule of [
      "- hypothesis: Proposed, not verified",
      "- structural-only: Hard limit",
      "- pinned-not-supported: Hard limit",
      "- retracted: Withdrawn",
    ]) {
      expect(text).toContain(rule);
    }
    expect(text).toContain(`[AFN-010: One bank flip is enough: make the whole inference chunk transactional](${SITE}/agents/capsules/AFN-010.md)`);

    const one = await client.getPrompt({ name: "retrieval_protocol", arguments: { task: "storage", id: "AFN-003" } });
    const withCapsule = (one.messages[0]?.content as { text: string }).text;
    expect(withCapsule).toContain("The capsule of AFN-003:");
    expect(withCapsule).toContain("Boundary: structural-only.");
    await expect(client.getPrompt({ name: "retrieval_protocol", arguments: { task: "x", id: "AFN-999" } })).rejects.toThrow(/AFN-999/);
  });
});

describe("MCP tools", () => {
  it("every tool has an output schema and answers with structured content", async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(4);
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe("object");
    const { commit } = (await client.callTool({ name: "list_notes", arguments: {} })).structuredContent as { commit: string };
    const calls: Record<string, Record<string, unknown>> = {
      changes_since: { since: commit },
      search_notes: { query: "sparse attention" },
      list_notes: {},
      get_capsule: { id: "AFN-016" },
      get_note: { id: "AFN-016" },
      governing_notes: { paths: ["src/cache/lru.ts"] },
    };
    for (const t of tools) {
      const result = await client.callTool({ name: t.name, arguments: calls[t.name] ?? {} });
      expect(result.isError ?? false, t.name).toBe(false);
      expect(result.structuredContent, t.name).toBeTypeOf("object");
    }
  });
});
