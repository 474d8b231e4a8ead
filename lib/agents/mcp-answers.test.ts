import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { noteFile } from "@/lib/store/testing";
import { acceptedNoteFile, commitWithGit as commitWithGitTo } from "@/lib/testing/plain-git";

/**
 * MCP tool calls answered from the per-commit kept answers (lib/agents/mcp-answers.ts), through the
 * real route handler, a real MCP client and a real repository changed with plain git: a repeated
 * call gets the same result under its own id, a new commit is seen at once, and the transport's
 * checks still refuse a request the real server would refuse. The proxy's lookup (`keptAnswerFor`)
 * answers exactly what the route kept, and leaves everything else to the route.
 */

const SITE = "http://notes.test:3000";
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-mcp-answers-"));
process.env.DATA_DIR = dataDir;
process.env.SITE_URL = SITE;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

let post: (request: Request) => Promise<Response>;
let keptAnswerFor: (request: NextRequest) => Promise<Response | null>;
beforeAll(async () => {
  post = (await import("@/app/agents/mcp/route")).POST;
  keptAnswerFor = (await import("@/lib/agents/mcp-answers")).keptAnswerFor;
});

const HEADERS = { host: "notes.test:3000", "content-type": "application/json", accept: "application/json, text/event-stream" };
const callBody = (id: number | string, query: string) =>
  JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "search_notes", arguments: { query } } });
const call = (id: number, query: string, headers: Record<string, string> = HEADERS) =>
  post(new Request(`${SITE}/agents/mcp`, { method: "POST", headers, body: callBody(id, query) }));
/** The request as the proxy sees it. */
const atProxy = (body: string, headers: Record<string, string> = HEADERS, method = "POST", path = "/agents/mcp") =>
  new NextRequest(`${SITE}${path}`, { method, headers, body: method === "GET" ? undefined : body });

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

    commitWithGit({ "notes/AFN-904.md": acceptedNoteFile("AFN-904", "Zanzibar ledger, published.") });
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

  it("is answered by the proxy's lookup once the route kept it, and nothing else is", async () => {
    const query = "proxy lookup heron";
    expect(await keptAnswerFor(atProxy(callBody(6, query)))).toBeNull();
    const first = await call(6, query);
    const routeBody = await first.text();
    const byProxy = await keptAnswerFor(atProxy(callBody(6, query)));
    expect(byProxy).not.toBeNull();
    // What the route answers for a kept call, to the byte and header.
    const byRoute = await call(6, query);
    const kept = await byRoute.text();
    expect(await byProxy!.text()).toBe(kept);
    expect(JSON.parse(kept)).toEqual(JSON.parse(routeBody));
    for (const name of ["content-type", "x-content-commit", "cache-control"]) expect(byProxy!.headers.get(name), name).toBe(byRoute.headers.get(name));
    const other = await keptAnswerFor(atProxy(callBody("seven", query)));
    expect(JSON.parse(await other!.text()).id).toBe("seven");

    const notKept = [
      atProxy(callBody(8, query), { ...HEADERS, origin: "http://evil.example" }),
      atProxy(callBody(8, query), { ...HEADERS, host: "rebound.evil.example" }),
      atProxy(`[${callBody(8, query)}]`),
      atProxy(callBody(8, query), { ...HEADERS, accept: "application/json" }),
      atProxy(callBody(8, query), HEADERS, "PUT"),
      atProxy(callBody(8, query), HEADERS, "POST", "/agents/mcp/"),
      atProxy(JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/list" })),
    ];
    // (That the route still gets the whole body after the proxy read it is Next's doing, its own
    // copy of the body: e2e/read-cache.spec.ts holds a production server to it.)
    for (const request of notKept) {
      expect(await keptAnswerFor(request), `${request.method} ${request.nextUrl.pathname} ${[...request.headers].join(" ")}`).toBeNull();
    }
  });
});
