import { serveSliceIndex, slicePreflight } from "@/lib/agents/slice-index";
import { tagSlice } from "@/lib/public/slices";

/** The compact index of one tag's notes: /tags/sparse-attention/llms.txt (the notes /tags/sparse-attention lists). */

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ tag: string }> }) {
  const { tag } = await params;
  return serveSliceIndex(request, "tag", (view) => tagSlice(view, tag));
}

export const OPTIONS = slicePreflight;
