import "server-only";
import { ZodError, type z } from "zod";
import { RefConflictError, RefLockedError, RemoteRewoundError, RemoteUnavailableError, StoreRequestError, UnknownRevisionError } from "@/lib/store";
import { ApiError, type ApiErrorBody, type Where } from "@/lib/rules/api-errors";

/** Every studio route handler answers through here: JSON bodies, and errors mapped in one place. */

export function json(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store" } });
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    const body: ApiErrorBody = { error: { status: error.status, code: error.code, message: error.message, ...error.detail } };
    return json({ ...body, ...error.extra }, error.status);
  }
  if (error instanceof ZodError) {
    const where = zodWhere(error);
    return errorResponse(new ApiError(400, "bad-request", `the request is not what this endpoint takes: ${summary(where)}`, { where }));
  }
  if (error instanceof RefConflictError) {
    return errorResponse(new ApiError(409, "stale-revision", `${error.ref} moved while this request ran; reload and try again`));
  }
  if (error instanceof RefLockedError) return errorResponse(new ApiError(409, "locked", error.message));
  // The remote's main was moved back and this instance refuses to follow (lib/store/remote.ts): nothing was written.
  if (error instanceof RemoteRewoundError) return errorResponse(new ApiError(409, "main-rewound", error.message));
  // The git remote (CONTENT_REMOTE) is out of reach: nothing was written, the same request can be sent again.
  if (error instanceof RemoteUnavailableError) {
    const response = errorResponse(new ApiError(503, "remote-unavailable", error.message));
    response.headers.set("retry-after", "30");
    return response;
  }
  if (error instanceof UnknownRevisionError) return errorResponse(new ApiError(422, "unknown-revision", error.message));
  if (error instanceof StoreRequestError) return errorResponse(new ApiError(400, "bad-request", error.message));
  console.error("studio API: unexpected error", error);
  const body: ApiErrorBody = { error: { status: 500, code: "internal", message: "the server failed to answer this request; the error is in its log" } };
  return json(body, 500);
}

/** Run a handler, answering its errors through errorResponse. */
export function handle<C = { params: Promise<unknown> }>(fn: (request: Request, context: C) => Promise<Response>) {
  return async (request: Request, context: C): Promise<Response> => {
    try {
      return await fn(request, context);
    } catch (e) {
      return errorResponse(e);
    }
  };
}

// Six sections of at most 100,000 characters each, escaped as JSON, fit with room to spare.
const MAX_BODY = 2_000_000;

/**
 * The request's JSON body parsed with `schema`; malformed JSON and a wrong shape are both 400s, a
 * body over 2 MB is 413 (as an image over its limit is).
 * The body must be declared application/json (415 otherwise, even when empty): a page on another
 * origin can send text/plain or a form without asking this site first, never application/json, so
 * this is the second lock, after lib/http/cross-site.ts, on a forged write.
 */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  requireJson(request.headers.get("content-type"));
  const tooLarge = new ApiError(413, "too-large", `the request body is larger than ${MAX_BODY / 1_000_000} MB`, {
    where: [{ field: "body", message: "too large" }],
  });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY) throw tooLarge;
  const text = await request.text();
  if (text.length > MAX_BODY) throw tooLarge;
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new ApiError(400, "bad-json", `the request body is not valid JSON: ${(e as Error).message}`, {
        where: [{ field: "body", message: "not valid JSON" }],
      });
    }
  }
  return schema.parse(value);
}

function requireJson(contentType: string | null): void {
  const type = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (type === "application/json") return;
  const got = contentType === null ? "no Content-Type" : `Content-Type ${JSON.stringify(contentType.slice(0, 100))}`;
  throw new ApiError(415, "unsupported-media-type", `this endpoint takes a JSON body sent as Content-Type: application/json; the request has ${got}`, {
    where: [{ field: "content-type", message: "must be application/json" }],
  });
}

export function zodWhere(error: ZodError): Where[] {
  return error.issues.map((i) => ({ field: i.path.map(String).join(".") || "body", message: i.message }));
}

const summary = (where: Where[]) =>
  where
    .slice(0, 3)
    .map((w) => `${w.field}: ${w.message}`)
    .join("; ") + (where.length > 3 ? `; and ${where.length - 3} more` : "");
