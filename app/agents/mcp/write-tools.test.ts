import { execFileSync } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE, noteFields, studioFixture, type Caller, type Json } from "@/lib/testing/studio";

/**
 * Agents writing through the rules: the SDK's Client over Streamable HTTP against the real MCP
 * route, with and without the studio API's bearer token, over a real content repository. What a
 * token's client writes goes through the studio's handlers (roles, rules, stale revisions) and
 * reaches no public surface; an anonymous client has no write tool at all.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
let mcpPost: (request: Request) => Promise<Response>;
const clients: Client[] = [];

beforeAll(async () => {
  f = await studioFixture();
  mcpPost = (await import("./route")).POST;
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  f?.cleanup();
});

async function connect(caller: Caller): Promise<Client> {
  const client = new Client({ name: "mcp-write-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/agents/mcp`), {
    fetch: (url, init) =>
      mcpPost(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), ...caller.headers, host: "studio.test" } })),
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const text = (r: CallToolResult) => r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
/** The studio's error body a refused write carries. */
const errorBody = (r: CallToolResult): Json => JSON.parse((r.content[1] as { text: string }).text);
const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const WRITE = ["comment_on_draft", "create_draft", "propose_hypothesis", "request_review", "save_draft"];

describe("an MCP client with an author's token", () => {
  let client: Client;
  let id: string;
  let first: string;
  let saved: string;

  beforeAll(async () => {
    client = await connect(f.authorToken);
  });

  it("lists the write tools beside the read tools, each with an output schema", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining([...WRITE, "search_notes", "get_note"]));
    expect(names.filter((name) => WRITE.includes(name)).sort()).toEqual(WRITE);
    for (const t of tools.filter((t) => WRITE.includes(t.name))) {
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(t.annotations?.readOnlyHint, t.name).toBe(false);
    }
  });

  it("creates a draft and saves it, each one commit by the token's account on the draft's branch", async () => {
    const created = await call(client, "create_draft", {});
    expect(created.isError ?? false, text(created)).toBe(false);
    ({ id, revision: first } = created.structuredContent as { id: string; revision: string });
    expect(id).toMatch(/^AFN-\d{3}$/);

    const result = await call(client, "save_draft", { id, revision: first, note: noteFields("Quokka write-through note", { related: ["AFN-016"] }) });
    expect(result.isError ?? false, text(result)).toBe(false);
    const body = result.structuredContent as { saved: boolean; revision: string; status: string };
    expect(body).toMatchObject({ saved: true, status: "draft" });
    saved = body.revision;
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(saved);
    expect(git("log", "-1", "--format=%an", saved)).toBe("ada");
  });

  it("refuses a save from a stale revision, writing nothing and carrying both versions", async () => {
    const mine = noteFields("Quokka from a stale copy", { related: ["AFN-016"] });
    const result = await call(client, "save_draft", { id, revision: first, note: mine });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^409 .*changed since revision/);
    const body = errorBody(result);
    expect(body.error.code).toBe("stale-revision");
    expect(body.theirs).toMatchObject({ revision: saved, fields: { title: "Quokka write-through note" } });
    expect(body.yours.title).toBe("Quokka from a stale copy");
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(saved);
  });

  it("refuses what the studio refuses, with the studio's findings (an invalid note)", async () => {
    const result = await call(client, "save_draft", { id, revision: saved, note: noteFields("", { related: ["AFN-016"] }) });
    expect(result.isError).toBe(true);
    expect(errorBody(result).error.status).toBe(422);
    expect(git("rev-parse", `refs/heads/drafts/${id}`)).toBe(saved);
  });

  it("proposes the draft as a hypothesis, comments on it and asks a reviewer, still on the draft's branch only", async () => {
    const proposed = await call(client, "propose_hypothesis", { id, revision: saved });
    expect(proposed.isError ?? false, text(proposed)).toBe(false);
    const view = proposed.structuredContent as { status: string; revision: string; published: boolean };
    expect(view).toMatchObject({ status: "hypothesis", published: false });

    const comment = await call(client, "comment_on_draft", { id, section: "evidence", revision: view.revision, text: "Evidence still to attach." });
    expect(comment.isError ?? false, text(comment)).toBe(false);
    expect((comment.structuredContent as { threads: unknown[] }).threads).toHaveLength(1);

    const asked = await call(client, "request_review", { id, revision: view.revision, reviewers: ["rita"] });
    expect(asked.isError ?? false, text(asked)).toBe(false);
    expect((asked.structuredContent as { requests: { reviewers: { id: string }[] }[] }).requests.at(-1)?.reviewers.map((r) => r.id)).toEqual(["rita"]);

    expect(git("ls-tree", "--name-only", "refs/heads/main", "notes/")).not.toContain(`${id}.md`);
  });

  it("is held to the studio's roles: a reviewer's token lists and calls comment_on_draft only, and a call of another write tool is a JSON-RPC error naming it and the role", async () => {
    const reviewer = await connect(f.reviewerToken);
    const { tools } = await reviewer.listTools();
    expect(tools.map((t) => t.name).filter((name) => WRITE.includes(name))).toEqual(["comment_on_draft"]);
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_notes", "get_note", "governing_notes"]));

    const drafts = git("for-each-ref", "refs/heads/drafts/");
    for (const tool of ["create_draft", "save_draft", "propose_hypothesis", "request_review"]) {
      const refused = reviewer.callTool({ name: tool, arguments: { id, revision: saved } });
      await expect(refused, tool).rejects.toMatchObject({ code: -32602 });
      await expect(refused, tool).rejects.toThrow(new RegExp(`${tool} is not offered to a reviewer's token: it is an author's tool.*comment_on_draft`));
    }
    expect(git("for-each-ref", "refs/heads/drafts/")).toBe(drafts);

    const revision = git("rev-parse", `refs/heads/drafts/${id}`);
    const comment = await call(reviewer, "comment_on_draft", { id, section: "decision", revision, text: "Which workload was this measured on?" });
    expect(comment.isError ?? false, text(comment)).toBe(false);
  });

  it("reaches no public surface: agent formats, search, the index and an anonymous MCP client", async () => {
    const anonymous = await connect(f.anonymous);
    const leak = new RegExp(`${id}|Quokka`);
    const get = async (path: string, handler: Promise<{ GET: (r: Request, c: never) => Promise<Response> }>, params?: Record<string, string>) => {
      const response = await (
        await handler
      ).GET(new Request(`${BASE}${path}`, { headers: { host: "studio.test" } }), { params: Promise.resolve(params) } as never);
      return { status: response.status, text: await response.text() };
    };
    for (const [path, handler] of [
      ["/agents/index.json", import("@/app/agents/index.json/route")],
      ["/llms.txt", import("@/app/llms.txt/route")],
      ["/llms-full.txt", import("@/app/llms-full.txt/route")],
      ["/feed.xml", import("@/app/feed.xml/route")],
      ["/agents/search.json?q=quokka", import("@/app/agents/search.json/route")],
    ] as const) {
      const got = await get(path, handler);
      expect(got.status, path).toBe(200);
      expect(got.text, path).not.toMatch(leak);
    }
    for (const file of [`${id}.md`, `${id}.json`, `${id}.txt`])
      expect((await get(`/notes/${file}`, import("@/app/agents/notes/[file]/route"), { file })).status).toBe(404);
    expect((await get(`/agents/capsules/${id}.json`, import("@/app/agents/capsules/[file]/route"), { file: `${id}.json` })).status).toBe(404);

    const search = await call(anonymous, "search_notes", { query: "Quokka write-through" });
    expect(JSON.stringify(search.structuredContent)).not.toMatch(new RegExp(id));
    expect(JSON.stringify(await call(anonymous, "list_notes", {}))).not.toMatch(leak);
    expect((await call(anonymous, "get_note", { id })).isError).toBe(true);
    expect(JSON.stringify(await anonymous.listResources())).not.toMatch(leak);
  });
});

describe("an MCP client without a token", () => {
  it("lists no write tool, and a write call is refused with what to send, writing nothing", async () => {
    const client = await connect(f.anonymous);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).not.toEqual(expect.arrayContaining(["create_draft"]));
    expect(tools.filter((t) => WRITE.includes(t.name))).toEqual([]);
    const drafts = git("for-each-ref", "refs/heads/drafts/");
    for (const tool of WRITE) {
      const refused = client.callTool({ name: tool, arguments: {} });
      await expect(refused, tool).rejects.toMatchObject({ code: -32602 });
      await expect(refused, tool).rejects.toThrow(
        new RegExp(`${tool} is not offered to an anonymous client: .*needs an? .*API token \\(send Authorization: Bearer`),
      );
    }
    expect(git("for-each-ref", "refs/heads/drafts/")).toBe(drafts);
  });

  it("a client with a revoked token is refused with 401 before any tool", async () => {
    await expect(connect(f.revokedToken)).rejects.toThrow(/Unauthorized: this API token is unknown or has been revoked/);
  });
});
