import type { PublishedView } from "@/lib/content/published";
import { MEDIA } from "./http";
import type { AgentUrls, SchemaName } from "./urls";

/**
 * The two machine-readable descriptions an agent can fetch knowing only the site's address
 * (docs/decisions/agent-discovery-documents.md):
 *
 * - the MCP Server Card of SEP-2127 (MCP extension `io.modelcontextprotocol/server-card`, schema
 *   `https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json`): who the server is
 *   and where its Streamable HTTP endpoint listens, without an initialize handshake;
 * - the API catalog of RFC 9727 (`/.well-known/api-catalog`, an RFC 9264 linkset): every agent
 *   endpoint with the JSON Schema that describes its answer (`service-desc`) and the guide
 *   (`service-doc`).
 */

export const SERVER_CARD_SCHEMA = "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/** The MCP server's own name and version, as its initialize answer gives them (lib/agents/mcp.ts). */
export const MCP_SERVER = { name: "field-notes", version: "1.0.0" } as const;

export type ServerCard = {
  $schema: typeof SERVER_CARD_SCHEMA;
  name: string;
  version: string;
  description: string;
  title: string;
  websiteUrl: string;
  remotes: { type: "streamable-http"; url: string }[];
};

/**
 * The card: `name` is reverse-DNS (the site's host reversed) with exactly one slash, as the schema's
 * pattern asks (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`); a host the pattern cannot spell becomes "local".
 */
export function serverCard(view: Pick<PublishedView, "site">, urls: AgentUrls): ServerCard {
  const host = new URL(urls.home).hostname.split(".").reverse().join(".");
  const namespace = /^[a-zA-Z0-9.-]+$/.test(host) ? host : "local";
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: `${namespace}/${MCP_SERVER.name}`,
    version: MCP_SERVER.version,
    description: oneLine(`Read-only access to the published decision notes of ${view.site.title}: search, the compact index, capsules and full notes.`),
    title: view.site.title,
    websiteUrl: urls.guide,
    remotes: [{ type: "streamable-http", url: urls.mcp }],
  };
}

export const API_CATALOG_PROFILE = "https://www.rfc-editor.org/info/rfc9727";
export const LINKSET_MEDIA = MEDIA.linkset;

type Target = { href: string; type?: string; title?: string };
type LinkContext = { anchor: string } & Record<string, Target[] | string>;

/**
 * The API catalog: the catalog's `item`s, then each endpoint with its schema and the guide. A
 * family of documents (a capsule per note, a note's JSON) is anchored at its folder
 * (`/agents/capsules/`, `/notes/`): a linkset anchor is a URI, and a URI template is not one.
 */
export function apiCatalog(urls: AgentUrls, catalogUrl: string, serverCardUrl: string): { linkset: LinkContext[] } {
  const schema = (name: SchemaName): Target => ({ href: urls.schema(name), type: "application/schema+json" });
  const doc: Target = { href: urls.guide, type: "text/html", title: "Agent guide: retrieval protocol, formats, limits" };
  const apis: LinkContext[] = [
    { anchor: urls.llms, "service-doc": [doc], describedby: [{ href: urls.guideMd, type: "text/markdown" }] },
    { anchor: urls.indexJson, "service-desc": [schema("index"), schema("index-entry")], "service-doc": [doc] },
    { anchor: `${urls.base}/agents/capsules/`, "service-desc": [schema("capsule")], "service-doc": [doc] },
    { anchor: `${urls.base}/notes/`, "service-desc": [schema("note")], "service-doc": [doc] },
    { anchor: `${urls.base}/agents/search.json`, "service-desc": [schema("search")], "service-doc": [doc] },
    { anchor: `${urls.base}/agents/phases.json`, "service-doc": [doc] },
    { anchor: `${urls.base}/agents/changes.json`, "service-desc": [schema("changes")], "service-doc": [doc] },
    { anchor: urls.governing, "service-desc": [schema("governing")], "service-doc": [doc] },
    { anchor: urls.mcp, "service-desc": [{ href: serverCardUrl, type: "application/json", title: "MCP Server Card (SEP-2127)" }], "service-doc": [doc] },
    { anchor: `${urls.base}/feed.xml`, "service-doc": [doc] },
  ];
  return {
    linkset: [{ anchor: catalogUrl, item: apis.map((a) => ({ href: a.anchor })) }, ...apis],
  };
}

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
