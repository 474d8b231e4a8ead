/**
 * The one error type of the studio API. Domain code throws it with the status a client should see
 * and a body that says what went wrong and where; ./respond.ts turns it (and zod errors, and the
 * store's errors) into a response in one place.
 */

export type ApiStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 503;

/** Where in the request or the note a problem is: a field path ("title", "sections.evidence") and, for text, a line. */
export type Where = { field: string; message: string; line?: number; column?: number; rule?: string; excerpt?: string };

export type ApiErrorBody = {
  error: { status: ApiStatus | 500; code: string; message: string; where?: Where[]; unmet?: string[] };
};

export class ApiError extends Error {
  constructor(
    readonly status: ApiStatus,
    readonly code: string,
    message: string,
    readonly detail: { where?: Where[]; unmet?: string[] } = {},
    /** Extra top-level members of the body, e.g. both versions of a stale save. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, "not-found", what);
