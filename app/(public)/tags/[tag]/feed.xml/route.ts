import { serveFeed } from "@/lib/public/feeds";
import { tagSlice } from "@/lib/public/slices";

/** The Atom feed of one tag's notes: /tags/sparse-attention/feed.xml, the notes /tags/sparse-attention lists. */

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ tag: string }> }) {
  const { tag } = await params;
  return serveFeed(request, (view) => tagSlice(view, tag));
}
