import { serveFeed } from "@/lib/public/feeds";
import { phaseSlice } from "@/lib/public/slices";

/** The Atom feed of one phase's notes: /phases/6-architecture/feed.xml, the notes /phases/6-architecture lists. */

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ phase: string }> }) {
  const { phase } = await params;
  return serveFeed(request, (view) => phaseSlice(view, phase));
}
