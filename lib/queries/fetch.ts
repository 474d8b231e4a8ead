import { readErrorBody } from "@/lib/api/bodies";
import type { ApiErrorBody } from "@/lib/api/errors";

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

export async function studioFetch<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: init.method ?? "GET",
      headers: init.body === undefined ? {} : { "content-type": "application/json" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: "same-origin",
      cache: "no-store",
    });
  } catch {
    throw new StudioApiError(0, { error: { status: 503, code: "offline", message: "the server could not be reached; your text is kept in this browser" } });
  }
  const body = (await response.json().catch(() => null)) as unknown;
  // An error answer is read with the API's own schema (lib/api/bodies.ts): an answer that is not
  // one (a proxy's error page) keeps its status and no body, and the message says so.
  if (!response.ok) throw new StudioApiError(response.status, readErrorBody(body));
  return body as T;
}

/** Retry a query only when the failure might pass (network, server), never for a 4xx answer. */
export const retryTransient = (count: number, error: unknown) => count < 2 && !(error instanceof StudioApiError && error.status >= 400 && error.status < 500);
