import type { NextRequest } from "next/server";
import { refuseForeignHost } from "@/lib/http/host-guard";
import { refuseCrossSiteWrite } from "@/lib/http/cross-site";
import { refuseMalformedPath } from "@/lib/http/malformed-path";
import { markdownTwin, withMarkdownLink } from "@/lib/http/markdown-twin";
import { continueSecurely, withSecurityHeaders } from "@/lib/http/security-headers";
import { cachedAgentFormat, cachedPage } from "@/lib/http/page-cache";
import { keptAnswerFor } from "@/lib/agents/mcp-answers";
import { pinnedPath } from "@/lib/http/pinned-path";
import { tidyRecordsAddress } from "@/lib/http/records-address";

/**
 * Every request passes here first, in this order: a request for a host we do not serve is
 * refused; a path with a malformed percent-escape is a 400 (Next's router would throw on it and
 * answer 500); a cross-site write riding on a session cookie is refused; an MCP tool call the
 * route already answered for main's commit is answered from memory (lib/agents/mcp-answers.ts);
 * a note pinned by path (`/notes/AFN-016@<commit>`) is redirected to its `?rev=` URL
 * (lib/http/pinned-path.ts); a request for a page's Markdown twin is rewritten to it (an agent format already built for
 * main's commit is answered from memory just before); home's filter form's address, empty choices
 * and all, is redirected to its tidy form (lib/http/records-address.ts); a public page already rendered for main's
 * commit is answered from memory (lib/http/page-cache.ts); everything else goes on to the app with
 * the security headers (and a refusal, a rewrite or an answer from memory carries them too). Each
 * step is one module in lib/http, so a reader finds each rule in one place; the MCP step is the
 * exception, beside the route's own use of the same kept answers, so the two cannot key a call
 * differently.
 */
export async function proxy(request: NextRequest) {
  const refused = refuseForeignHost(request) ?? refuseMalformedPath(request) ?? refuseCrossSiteWrite(request);
  if (refused) return withSecurityHeaders(refused);
  // A repeated MCP tool call: the route handler around a kept answer cost half the throughput.
  // Anything else POSTed there (a miss, another method, a batch, a foreign Origin) goes on to the route.
  const mcp = await keptAnswerFor(request);
  if (mcp) return withSecurityHeaders(mcp);
  // /notes/AFN-016@<commit>: redirected to its ?rev= URL, or a 404 saying why no commit of main is named.
  const pinned = await pinnedPath(request);
  if (pinned) return withSecurityHeaders(pinned);
  // An agent format (named by its path alone) already built for main's commit: from memory, or a 304.
  const agent = await cachedAgentFormat(request);
  if (agent) return agent;
  const twin = markdownTwin(request);
  if (twin) return withSecurityHeaders(twin);
  // Home's filter form sends its empty choices: redirected to the one address, before any render.
  const tidy = tidyRecordsAddress(request);
  if (tidy) return withSecurityHeaders(tidy);
  // A public page already rendered for main's commit and this origin: from memory, or a 304.
  const cached = await cachedPage(request);
  return cached ?? withMarkdownLink(request, await continueSecurely(request));
}

export const config = {
  // Everything but Next's own static files and the icon.
  matcher: ["/((?!_next/static|_next/image|icon.svg).*)"],
};
