import { NextResponse, type NextRequest } from "next/server";

/** The answer for a request that no guard refused and no rewrite took: the app, with its headers. */
export function continueSecurely(_request: NextRequest): NextResponse {
  return NextResponse.next();
}
