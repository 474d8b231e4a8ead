import { serveSliceIndex, slicePreflight } from "@/lib/agents/slice-index";
import { phaseSlice } from "@/lib/public/slices";

/** The compact index of one phase's notes: /phases/6-architecture/llms.txt (the notes /phases/6-architecture lists). */

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ phase: string }> }) {
  const { phase } = await params;
  return serveSliceIndex(request, "phase", (view) => phaseSlice(view, phase));
}

export const OPTIONS = slicePreflight;
