import { discoveryPreflight, serveApiCatalog } from "@/lib/agents/discovery-routes";

/** The API catalog (RFC 9727): every agent endpoint, its JSON Schema and the guide, as a linkset. */

export const dynamic = "force-dynamic";

export const GET = serveApiCatalog;
export const OPTIONS = discoveryPreflight;
