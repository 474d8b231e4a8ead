import { serveFeed } from "@/lib/public/feeds";
import { archiveSlice, statusSlice } from "@/lib/public/slices";

/**
 * The Atom feed: every published note, most recently changed first, read from the current
 * published commit; with `?status=verified` (the home page's status filter) the notes of one status.
 */

export const dynamic = "force-dynamic";

export function GET(request: Request) {
  const status = new URL(request.url).searchParams.get("status");
  return serveFeed(request, (view) => (status === null ? archiveSlice(view) : statusSlice(view, status)));
}
