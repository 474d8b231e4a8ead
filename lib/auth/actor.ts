import "server-only";
import { getServerSession } from "next-auth";
import { ApiError } from "@/lib/rules/api-errors";
import { roleMay } from "@/lib/rules/roles";
import type { Role } from "@/lib/rules/status-machine";
import type { StudioActor } from "@/lib/rules/identity";
import { authOptions } from "./options";
import { displayNameOf } from "./account-file";
import { accountOfToken } from "./tokens";

/**
 * Who is making this request: a bearer token (`npm run user -- token`) or the session cookie.
 * Every studio route handler starts here; the role check is the server's, whatever the page showed.
 */

export type ActorOptions = {
  /** Answer an anonymous request with 404 instead of 401: a draft's URL does not admit it exists. */
  hideFromAnonymous?: boolean;
};

export async function requireActor(request: Request, role?: Role, options: ActorOptions = {}): Promise<StudioActor> {
  const actor = await actorOf(request);
  if (!actor) {
    if (options.hideFromAnonymous) throw new ApiError(404, "not-found", "there is nothing at this address");
    throw new ApiError(401, "unauthenticated", "sign in, or send Authorization: Bearer <token> with a token from `npm run user -- token <name>`");
  }
  if (!roleMay(actor.role, role)) {
    throw new ApiError(403, "forbidden", `only ${role}s may do this; ${actor.name} is signed in as a ${actor.role}`);
  }
  return actor;
}

/**
 * The account of the request's bearer token; null when it sends no Authorization header. A
 * malformed, unknown or revoked token is a 401 (`bad-token`), never anonymous. The MCP endpoint
 * takes this alone: it answers scripts, not pages, so a session cookie does not count there.
 */
export async function tokenActor(request: Request): Promise<StudioActor | null> {
  const header = request.headers.get("authorization");
  if (header === null) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw new ApiError(401, "bad-token", 'the Authorization header must read "Bearer <token>"');
  const found = await accountOfToken(m[1]);
  if (!found) throw new ApiError(401, "bad-token", "this API token is unknown or has been revoked");
  return { id: found.account.name, name: displayNameOf(found.account), role: found.account.role, via: "token" };
}

async function actorOf(request: Request): Promise<StudioActor | null> {
  if (request.headers.has("authorization")) return tokenActor(request);
  const session = await getServerSession(
    { headers: Object.fromEntries(request.headers), cookies: cookiesOf(request.headers.get("cookie")) } as never,
    { getHeader() {}, setCookie() {}, setHeader() {} } as never,
    authOptions(),
  );
  // The session callback has just re-read the account or allow-list entry behind this session.
  return session?.actor ? { ...session.actor, via: "session" } : null;
}

/** The signed-in actor of the page being rendered (server components), or null. */
export async function currentActor(): Promise<StudioActor | null> {
  const session = await getServerSession(authOptions());
  return session?.actor ? { ...session.actor, via: "session" } : null;
}

function cookiesOf(header: string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i <= 0) continue;
    const raw = part.slice(i + 1).trim();
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(raw);
    } catch {
      out[part.slice(0, i).trim()] = raw;
    }
  }
  return out;
}
