/**
 * The one error type of the studio API, and the one table of its error codes. Domain code throws
 * ApiError with a code from API_ERRORS and the status the table gives it (the compiler refuses any
 * other pair); ./respond.ts turns it (and zod errors, and the store's errors) into a response in
 * one place; the studio's client (lib/queries/fetch.ts) reads the same codes back with the schemas
 * in ./bodies.ts.
 */

/** Every code the studio API answers, with its HTTP status. A new code is added here first. */
export const API_ERRORS = {
  // The request itself is wrong: nothing was read or written.
  "bad-request": 400,
  "bad-json": 400,
  "bad-multipart": 400,
  "empty-file": 400,
  "missing-file": 400,
  // Who asks.
  unauthenticated: 401,
  "bad-token": 401,
  forbidden: 403,
  "not-your-comment": 403,
  "self-verdict": 403,
  "not-found": 404,
  // A JSON body over 2 MB, an image over its limit: 413 Content Too Large, whichever it is.
  "too-large": 413,
  // The repository moved or is busy: nothing was written; the body says what is there now.
  "stale-revision": 409,
  "main-changed": 409,
  // Another publish of the same revision landed first: this one wrote nothing (the body names main's commit).
  "published-meanwhile": 409,
  // The git remote's main was moved to a commit that does not descend from this instance's (a force-push), and the instance refuses to follow.
  "main-rewound": 409,
  // main's tip holds a commit the rules refuse (pushed from outside the app): a write landing on top of it would be refused with it and never served.
  "main-refused": 409,
  locked: 409,
  busy: 409,
  "already-resolved": 409,
  "already-open": 409,
  "already-withdrawn": 409,
  // A draft that was published once is retracted or superseded, never discarded.
  "not-discardable": 409,
  "unsupported-media-type": 415,
  "unsupported-image": 415,
  // A rule refused the write: every finding is in `where` / `unmet`.
  // A revision the request names (a thread's, a publish's) that the repository does not hold.
  "unknown-revision": 422,
  "quote-not-found": 422,
  "invalid-note": 422,
  "unknown-phase": 422,
  "boundary-removed": 422,
  policy: 422,
  "write-refused": 422,
  "transition-refused": 422,
  "publish-refused": 422,
  "close-refused": 422,
  "invalid-phase": 422,
  "reopen-refused": 422,
  "not-reviewable": 422,
  "read-only-field": 422,
  unchanged: 422,
  "broken-image": 422,
  "too-many-pixels": 422,
  // An SVG with more elements, nesting or attributes than it may have (the message names the limit), or one that took too long to check.
  "image-too-complex": 422,
  "image-refused": 422,
  "review-refused": 422,
  // The studio's import form: a field the rules refuse (every problem in `where`), a source that
  // cannot be read (a clone that fails, no records), an uploaded zip refused (a path outside its
  // folder, a link, a zip bomb).
  "invalid-import": 422,
  "import-source": 422,
  "bad-zip": 422,
  // A review request naming someone who cannot approve the note (no such account, not a reviewer, one of its authors).
  "not-a-reviewer": 422,
  // The git remote is out of reach: nothing was written, the same request can be sent again.
  "remote-unavailable": 503,
  // Never sent by the server: the studio's client answers it itself when the server cannot be reached.
  offline: 503,
  // Never sent by the server either: the client's own answer when a reply is not the shape the
  // endpoint's schema in ./bodies.ts says (a server of another version, a proxy's page with 200).
  "unreadable-answer": 502,
  // The server failed; the error is in its log.
  internal: 500,
} as const satisfies Record<string, number>;

export type ApiErrorCode = keyof typeof API_ERRORS;
/** The one status the table gives `C`. */
export type StatusOf<C extends ApiErrorCode> = (typeof API_ERRORS)[C];
export type ApiStatus = StatusOf<ApiErrorCode>;

/** Where in the request or the note a problem is: a field path ("title", "sections.evidence") and, for text, a line. */
export type Where = { field: string; message: string; line?: number; column?: number; rule?: string; excerpt?: string };

type Detail = { where?: Where[]; unmet?: string[] };

export type ApiErrorBody = {
  error: { status: ApiStatus; code: ApiErrorCode; message: string; where?: Where[]; unmet?: string[] };
};

/** A status and a code that belong together in API_ERRORS, then the message, detail and extra body members. */
type ErrorArgs = {
  [C in ApiErrorCode]: [status: StatusOf<C>, code: C, message: string, detail?: Detail, extra?: Record<string, unknown>];
}[ApiErrorCode];

export class ApiError extends Error {
  readonly status: ApiStatus;
  readonly code: ApiErrorCode;
  readonly detail: Detail;
  /** Extra top-level members of the body, e.g. both versions of a stale save. */
  readonly extra: Record<string, unknown>;

  constructor(...[status, code, message, detail = {}, extra = {}]: ErrorArgs) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extra = extra;
  }
}

/** The same, for a helper that picks the code at run time: the status must still be the table's. */
export function apiError<C extends ApiErrorCode>(status: StatusOf<C>, code: C, message: string, detail?: Detail, extra?: Record<string, unknown>): ApiError {
  return new ApiError(...([status, code, message, detail, extra] as ErrorArgs));
}

export const notFound = (what: string) => new ApiError(404, "not-found", what);
