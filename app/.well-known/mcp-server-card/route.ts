import { discoveryPreflight, serveServerCard } from "@/lib/agents/discovery-routes";

/** The MCP Server Card (SEP-2127); the same document at each address clients look for it. */

export const dynamic = "force-dynamic";

export const GET = serveServerCard;
export const OPTIONS = discoveryPreflight;
