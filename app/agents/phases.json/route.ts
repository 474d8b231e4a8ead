import { preflight, serveAgent } from "@/lib/agents/http";
import { phasesJson } from "@/lib/agents/phases";
import { getPublishedPhases } from "@/lib/content/phases";

export const dynamic = "force-dynamic";

/** GET /agents/phases.json: every phase with its status, closeout record and published notes. */
export function GET(request: Request) {
  return serveAgent(request, { variant: "phases.json", media: "json" }, async ({ view, urls }) => {
    return { body: phasesJson(await getPublishedPhases(view), urls) };
  });
}

export const OPTIONS = preflight;
