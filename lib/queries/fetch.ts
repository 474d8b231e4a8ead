import type { z } from "zod";
import { readErrorBody } from "@/lib/validations/answers";
import type { ApiErrorBody } from "@/lib/rules/api-errors";

/** The browser's side of the studio API: JSON in, JSON out, and an error that keeps the answer's body. */

export class StudioApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: (ApiErrorBody & Record<string, unknown>) | null,
  ) {
    super(body?.error.message ?? `the server answered ${status}`);
    this.name = "StudioApiError";
  }
}

/**
 * One call to the studio API, its answer read with `schema` (lib/validations/answers.ts): what a component
 * gets is what the schema says, or a StudioApiError whose message says the answer could not be read
 * and what the user should do, never an object that crashes the component that reads it.
 */
export async function studioFetch<S extends z.ZodType>(path: string, schema: S, init: { method?: string; body?: unknown } = {}): Promise<z.output<S>> {
  const method = init.method ?? "GET";
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new StudioApiError(0, { error: { status: 503, code: "offline", message: "the server could not be reached; your text is kept in this browser" } });
  }
  const body = (await response.json().catch(() => undefined)) as unknown;
  // An error answer is read with the API's own schema (lib/validations/answers.ts): an answer that is not
  // one (a proxy's error page) keeps its status and no body, and the message says so.
  if (!response.ok) throw new StudioApiError(response.status, readErrorBody(body ?? null));
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new StudioApiError(response.status, unreadable(method, parsed.error));
  return parsed.data;
}

/** What the user is told when a success answer is not what the studio reads: what, where, and what to do. */
function unreadable(method: string, error: z.ZodError): ApiErrorBody {
  const where = error.issues.slice(0, 3).map((i) => ({ field: i.path.map(String).join(".") || "body", message: i.message }));
  const first = where[0] ? ` (${where[0].field}: ${where[0].message})` : "";
  const then =
    method === "GET"
      ? "what this page shows may be out of date; reload it"
      : "the change may have been made all the same; reload the page to see the note as it is now";
  return {
    error: {
      status: 502,
      code: "unreadable-answer",
      message: `The server's answer could not be read${first}: ${then}. If this stays, the page and the server are of different versions.`,
      where,
    },
  };
}

/**
 * Retry a query only when the failure might pass (network, server), never for a 4xx answer nor an
 * answer the client cannot read (the page and the server disagree; asking again changes nothing).
 */
export const retryTransient = (count: number, error: unknown) =>
  count < 2 && !(error instanceof StudioApiError && ((error.status >= 400 && error.status < 500) || error.body?.error.code === "unreadable-answer"));
