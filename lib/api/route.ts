import "server-only";
import { z } from "zod";
import { requireActor } from "@/lib/auth/actor";
import type { StudioActor } from "@/lib/rules/identity";
import type { Role } from "@/lib/rules/status-machine";
import { threadIdParam } from "@/lib/review/thread-id";
import { noteIdParam } from "@/lib/studio/refs";
import { handle, json, parseBody } from "./respond";

/**
 * One studio route: who may call it, what its URL params and body are, and the one call it makes.
 * The wrapper does the rest in the same order for every route — the actor (401/403, or 404 for a
 * draft's address), the params (parsed with zod; a bad id is a 404 as for one that does not
 * exist), the body (JSON only, parsed with zod: 415/400) — and maps every error in one place
 * (./respond.ts). A route file is then the call it makes:
 *
 *   export const POST = route({ role: "author", params: { id: noteId }, body: publishNoteRequest },
 *     ({ actor, params, body }) => publishNote(actor, params.id, body));
 */

/** A note id from the URL ("afn-022" is AFN-022); anything else answers 404. */
export const noteId = z.string().transform((raw) => noteIdParam(raw));
/** A thread id from the URL (12 hex characters); anything else answers 404. */
export const threadId = z.string().transform((raw) => threadIdParam(raw));
/** A comment id from the URL (12 hex characters); anything else answers 404. */
export const commentId = z.string().transform((raw) => threadIdParam(raw, "comment"));
/** A verdict record id from the URL (12 hex characters); anything else answers 404. */
export const verdictId = z.string().transform((raw) => threadIdParam(raw, "verdict"));
/** A phase slug from the URL, as written (the phase module answers 404 for one it does not know). */
export const phaseSlug = z.string();

type ParamShape = Record<string, z.ZodType<unknown, string>>;
type Params<P extends ParamShape | undefined> = P extends ParamShape ? { [K in keyof P]: z.output<P[K]> } : Record<string, never>;
type Body<B extends z.ZodType | undefined> = B extends z.ZodType ? z.output<B> : undefined;

export type RouteSpec<P extends ParamShape | undefined, B extends z.ZodType | undefined> = {
  /** The role the caller must have; omitted: anyone signed in. */
  role?: Role;
  /** An anonymous caller gets 404, not 401: a draft's address does not admit it exists. */
  hideFromAnonymous?: boolean;
  params?: P;
  /** The JSON body's schema; omitted: the route reads no JSON body (a GET, a file upload). */
  body?: B;
  /** The status of a successful answer (default 200). */
  status?: number;
};

export type RouteInput<P extends ParamShape | undefined, B extends z.ZodType | undefined> = {
  actor: StudioActor;
  params: Params<P>;
  body: Body<B>;
  request: Request;
};

/** A studio route handler, carrying the role it needs (undefined: anyone signed in) for whoever lists what a role may call (the MCP tools). */
export type StudioHandler = ((request: Request, context: { params?: Promise<Record<string, string>> }) => Promise<Response>) & {
  readonly role: Role | undefined;
};

/**
 * A Next route handler. `run`'s answer is sent as JSON with `spec.status`; a Response it returns
 * (a 201 with a Location header) is sent as it is.
 */
export function route<P extends ParamShape | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<P, B>,
  run: (input: RouteInput<P, B>) => Promise<unknown>,
): StudioHandler {
  const handler = handle(async (request: Request, context: { params?: Promise<Record<string, string>> }) => {
    const actor = await requireActor(request, spec.role, { hideFromAnonymous: spec.hideFromAnonymous });
    const raw = (await context?.params) ?? {};
    const params = Object.fromEntries(Object.entries((spec.params ?? {}) as ParamShape).map(([k, schema]) => [k, schema.parse(raw[k] ?? "")])) as Params<P>;
    const body = (spec.body ? await parseBody(request, spec.body) : undefined) as Body<B>;
    const answer = await run({ actor, params, body, request });
    return answer instanceof Response ? answer : json(answer, spec.status);
  });
  return Object.assign(handler, { role: spec.role });
}
