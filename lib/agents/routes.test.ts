import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaValidator } from "./schema-validator";
import { jsonSchemaOf } from "./schemas";
import { agentUrls } from "./urls";
import { commitWithGit as commitWithGitTo } from "@/lib/testing/plain-git";

/**
 * The agent routes as the server runs them, in-process: real route handlers over a real content
 * repository seeded from content/, changed with plain git like an outside agent would.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-agents-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;

type Handler = (request: Request, ctx: { params: Promise<{ file: string }> }) => Promise<Response> | Response;
let routes: Record<string, Handler>;
let mcpPost: (request: Request) => Promise<Response>;

beforeAll(async () => {
  routes = {
    index: (await import("@/app/agents/index.json/route")).GET as Handler,
    indexMd: (await import("@/app/agents/index.md/route")).GET as Handler,
    capsule: (await import("@/app/agents/capsules/[file]/route")).GET,
    note: (await import("@/app/agents/notes/[file]/route")).GET,
    search: (await import("@/app/agents/search.json/route")).GET as Handler,
    schema: (await import("@/app/agents/schema/[file]/route")).GET,
    llms: (await import("@/app/llms.txt/route")).GET as Handler,
  };
  mcpPost = (await import("@/app/agents/mcp/route")).POST;
});

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function get(route: string, url: string, headers: Record<string, string> = {}, file = "") {
  const handler = routes[route];
  if (!handler) throw new Error(`no route ${route}`);
  return handler(new Request(`${SITE}${url}`, { headers: { host: "notes.test:3000", ...headers } }), { params: Promise.resolve({ file }) });
}

const commitWithGit = (files: Record<string, string>, branch = "main") => commitWithGitTo(path.join(dataDir, "content.git"), files, branch);

describe("every agent GET", () => {
  it("names the commit, carries its ETag, revalidates, is open to other origins, and answers 304", async () => {
    const res = await get("index", "/agents/index.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const commit = res.headers.get("x-content-commit") ?? "";
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(res.headers.get("etag")).toContain(commit);
    expect(res.headers.get("cache-control")).toBe("public, max-age=0, must-revalidate");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const body = await res.json();
    expect(body.commit).toBe(commit);
    expect(schemaValidator(jsonSchemaOf("index", agentUrls(SITE).schema("index")))(body)).toEqual([]);

    const again = await get("index", "/agents/index.json", { "if-none-match": res.headers.get("etag") ?? "" });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("x-content-commit")).toBe(commit);
  });

  it("uses the right media type for each format", async () => {
    expect((await get("indexMd", "/agents/index.md")).headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect((await get("capsule", "/agents/capsules/AFN-016.md", {}, "AFN-016.md")).headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect((await get("note", "/agents/notes/AFN-016.txt", {}, "AFN-016.txt")).headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect((await get("schema", "/agents/schema/capsule.json", {}, "capsule.json")).headers.get("content-type")).toBe("application/schema+json; charset=utf-8");
    expect((await get("llms", "/llms.txt")).headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("says clearly what is wrong with a bad request, in the route's media type", async () => {
    const unknown = await get("capsule", "/agents/capsules/AFN-999.json", {}, "AFN-999.json");
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toMatch(/no published note AFN-999/);
    const badFormat = await get("note", "/agents/notes/AFN-016.xml", {}, "AFN-016.xml");
    expect(badFormat.status).toBe(404);
    expect(await badFormat.text()).toMatch(/\.xml is not one of its formats; ask for AFN-016\.md or AFN-016\.txt or AFN-016\.json/);
    const noQuery = await get("search", "/agents/search.json");
    expect(noQuery.status).toBe(400);
    expect((await noQuery.json()).error).toMatch(/q is missing/);
    const badLimit = await get("search", "/agents/search.json?q=state&limit=0");
    expect((await badLimit.json()).error).toMatch(/limit must be a whole number from 1 to 50/);
  });
});

describe("drafts", () => {
  it("committed to main or to a draft branch with plain git, appear in no agent format", async () => {
    const before = (await (await get("index", "/agents/index.json")).json()).commit;
    const draft = (id: string) =>
      fs
        .readFileSync(path.resolve("content/notes/AFN-016.md"), "utf8")
        .replace(/^id: AFN-016$/m, `id: ${id}`)
        .replace(/^status: .*$/m, "status: draft")
        .replace(/^title: .*$/m, "title: Zanzibar quokka draft");
    commitWithGit({ "notes/AFN-951.md": draft("AFN-951") });
    commitWithGit({ "notes/AFN-961.md": draft("AFN-961") }, "drafts/AFN-961");

    const index = await (await get("index", "/agents/index.json")).json();
    expect(index.commit).not.toBe(before); // the new commit on main is what is served
    expect(index.count).toBe(21);
    for (const [route, url, file] of [
      ["index", "/agents/index.json", ""],
      ["indexMd", "/agents/index.md", ""],
      ["llms", "/llms.txt", ""],
    ] as const) {
      const text = await (await get(route, url, {}, file)).text();
      expect(text, url).not.toMatch(/AFN-951|AFN-961|Zanzibar/);
    }
    for (const q of ["Zanzibar quokka", "AFN-951", "AFN-961"]) {
      const search = await (await get("search", `/agents/search.json?q=${encodeURIComponent(q)}`)).json();
      expect(JSON.stringify(search.results), q).not.toMatch(/AFN-951|AFN-961|Zanzibar/);
    }
    // The same words in a published note are found: the search above could have failed.
    const published = await (await get("search", `/agents/search.json?q=${encodeURIComponent("sparse mask")}`)).json();
    expect(published.results[0].id).toBe("AFN-016");
    for (const id of ["AFN-951", "AFN-961"]) {
      expect((await get("capsule", `/agents/capsules/${id}.md`, {}, `${id}.md`)).status).toBe(404);
      expect((await get("note", `/agents/notes/${id}.json`, {}, `${id}.json`)).status).toBe(404);
    }
  });
});

describe("the MCP endpoint", () => {
  const connect = async () => {
    const client = new Client({ name: "routes-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(`${SITE}/agents/mcp`), {
      fetch: (url, init) => mcpPost(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "notes.test:3000" } })),
    });
    await client.connect(transport);
    return client;
  };

  it("lists the read-only tools and finds AFN-010 first for 'transactional state'", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["changes_since", "get_capsule", "get_note", "governing_notes", "list_notes", "search_notes"]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema)).toBe(true);
    const result = await client.callTool({ name: "search_notes", arguments: { query: "transactional state" } });
    const hits = (result.structuredContent as { results: { id: string; status: string; flags: object }[] }).results;
    expect(hits[0]?.id).toBe("AFN-010");
    expect(hits[0]?.status).toBe("verified-checkpoint");
    await client.close();
  });

  it("answers a capsule with status and boundaries as structured fields, and an unknown ID as a tool error", async () => {
    const client = await connect();
    const capsule = await client.callTool({ name: "get_capsule", arguments: { id: "AFN-003" } });
    const c = capsule.structuredContent as { status: string; boundaries: { boundary: string }[]; flags: { structural_only: boolean } };
    expect(c.status).toBe("verified-structural");
    expect(c.boundaries.map((b) => b.boundary)).toEqual(["structural-only"]);
    expect(c.flags.structural_only).toBe(true);
    const missing = await client.callTool({ name: "get_capsule", arguments: { id: "AFN-999" } });
    expect(missing.isError).toBe(true);
    await client.close();
  });

  it("refuses a foreign Origin and GET", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    const foreign = await mcpPost(
      new Request(`${SITE}/agents/mcp`, {
        method: "POST",
        body,
        headers: { host: "notes.test:3000", origin: "https://evil.example", "content-type": "application/json", accept: "application/json, text/event-stream" },
      }),
    );
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).error.message).toMatch(/Origin "https:\/\/evil.example"/);
    const { GET } = await import("@/app/agents/mcp/route");
    expect(GET().status).toBe(405);
  });
});
