import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BASE, params, studioFixture } from "@/lib/testing/studio";
import { getContentStore } from "@/lib/working-copy/content-store";
import * as apiCatalogRoute from "@/app/.well-known/api-catalog/route";
import * as cardWellKnown from "@/app/.well-known/mcp-server-card/route";
import * as cardFolder from "@/app/.well-known/mcp/server-card.json/route";
import * as cardMcpJson from "@/app/.well-known/mcp.json/route";
import * as cardBesideEndpoint from "@/app/agents/mcp/server-card/route";
import * as mcp from "@/app/agents/mcp/route";
import * as schemaRoute from "@/app/agents/schema/[file]/route";
import { SERVER_CARD_SCHEMA } from "./discovery";

/**
 * The discovery documents as the server answers them: the MCP Server Card (SEP-2127) at each of its
 * addresses, naming the endpoint a real MCP client then connects to and the name and version that
 * endpoint gives; the RFC 9727 API catalog, whose every JSON Schema link answers a JSON Schema.
 */

let f: Awaited<ReturnType<typeof studioFixture>>;
beforeAll(async () => {
  f = await studioFixture();
  await getContentStore();
}, 60_000);
afterAll(() => f.cleanup());

const get = (pathname: string, headers: Record<string, string> = {}) => new Request(`${BASE}${pathname}`, { headers: { host: "studio.test", ...headers } });

describe("the MCP Server Card", () => {
  it("is the same document at every address, and follows the card schema's required fields and patterns", async () => {
    const answers = await Promise.all([
      cardWellKnown.GET(get("/.well-known/mcp-server-card")),
      cardFolder.GET(get("/.well-known/mcp/server-card.json")),
      cardMcpJson.GET(get("/.well-known/mcp.json")),
      cardBesideEndpoint.GET(get("/agents/mcp/server-card")),
    ]);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(a.headers.get("access-control-allow-origin")).toBe("*");
    }
    expect(new Set(bodies).size).toBe(1);
    const card = JSON.parse(bodies[0]!);
    expect(card.$schema).toBe(SERVER_CARD_SCHEMA);
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.name).toBe("test.studio/field-notes");
    expect(card.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof card.description).toBe("string");
    expect(card.remotes).toEqual([{ type: "streamable-http", url: `${BASE}/agents/mcp` }]);
  });

  it("names the endpoint an MCP client connects to, with the name and version the server gives", async () => {
    const card = await (await cardWellKnown.GET(get("/.well-known/mcp-server-card"))).json();
    const client = new Client({ name: "discovery-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(card.remotes[0].url), {
      fetch: (url, init) => mcp.POST(new Request(url, { ...init, headers: { ...Object.fromEntries(new Headers(init?.headers)), host: "studio.test" } })),
    });
    await client.connect(transport);
    expect(client.getServerVersion()).toMatchObject({ name: card.name.split("/")[1], version: card.version });
    await client.close();
  });
});

describe("the API catalog (/.well-known/api-catalog, RFC 9727)", () => {
  it("is a linkset naming itself, listing every agent endpoint as an item, each with its JSON Schema or guide", async () => {
    const response = await apiCatalogRoute.GET(get("/.well-known/api-catalog"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    expect(response.headers.get("link")).toContain(`</.well-known/api-catalog>; rel="api-catalog"`);
    const { linkset } = (await response.json()) as { linkset: ({ anchor: string } & Record<string, { href: string; type?: string }[]>)[] };
    const [self, ...apis] = linkset;
    expect(self!.anchor).toBe(`${BASE}/.well-known/api-catalog`);
    expect(self!.item!.map((i) => i.href)).toEqual(apis.map((a) => a.anchor));
    expect(apis.map((a) => a.anchor)).toEqual(
      expect.arrayContaining([
        `${BASE}/llms.txt`,
        `${BASE}/agents/index.json`,
        `${BASE}/agents/search.json`,
        `${BASE}/agents/mcp`,
        `${BASE}/feed.xml`,
        `${BASE}/agents/changes.json`,
        `${BASE}/agents/governing.json`,
      ]),
    );
    for (const api of apis) expect(api["service-desc"] ?? api["service-doc"], api.anchor).toBeDefined();
    // Every JSON Schema it names answers one, from the schema route.
    const schemas = apis.flatMap((a) => a["service-desc"] ?? []).filter((d) => d.type === "application/schema+json");
    expect(schemas.length).toBeGreaterThanOrEqual(5);
    for (const { href } of schemas) {
      const file = href.slice(`${BASE}/agents/schema/`.length);
      const answer = await schemaRoute.GET(get(`/agents/schema/${file}`), params({ file }));
      expect(answer.status, href).toBe(200);
      expect((await answer.json()).$schema, href).toMatch(/json-schema\.org/);
    }
    // The MCP endpoint is described by the Server Card.
    expect(apis.find((a) => a.anchor === `${BASE}/agents/mcp`)?.["service-desc"]?.[0]?.href).toBe(`${BASE}/.well-known/mcp-server-card`);
  });

  it("answers a conditional GET with 304", async () => {
    const etag = (await apiCatalogRoute.GET(get("/.well-known/api-catalog"))).headers.get("etag")!;
    expect((await apiCatalogRoute.GET(get("/.well-known/api-catalog", { "if-none-match": etag }))).status).toBe(304);
  });
});
