import { preflight, serveAgent } from "./http";
import { apiCatalog, serverCard } from "./discovery";

/**
 * The handlers of the discovery documents (./discovery.ts), one per document, exported by each
 * address that serves it: served like every agent format (commit ETag, 304, CORS).
 */

/** The MCP Server Card, at every address clients look for it (docs/decisions/agent-discovery-documents.md). */
export function serveServerCard(request: Request): Promise<Response> {
  return serveAgent(request, { variant: "server-card", media: "json" }, ({ view, urls }) => ({ body: serverCard(view, urls) }));
}

/** RFC 9727's catalog; its own address in a Link header as rel="api-catalog" (RFC 9727, section 2). */
export async function serveApiCatalog(request: Request): Promise<Response> {
  const response = await serveAgent(request, { variant: "api-catalog", media: "linkset" }, ({ urls }) => ({
    body: apiCatalog(urls, `${urls.base}${API_CATALOG_PATH}`, `${urls.base}${SERVER_CARD_PATH}`),
  }));
  response.headers.append("Link", `<${API_CATALOG_PATH}>; rel="api-catalog"`);
  return response;
}

export const API_CATALOG_PATH = "/.well-known/api-catalog";
/** SEP-2127's well-known address (its body's, and the IANA registration it asks for). */
export const SERVER_CARD_PATH = "/.well-known/mcp-server-card";

export const discoveryPreflight = preflight;
