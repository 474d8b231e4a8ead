import { phaseSlug, route } from "@/lib/api/route";
import { closePhase } from "@/lib/studio/phases";
import { closePhaseRequest } from "@/lib/validations/phase";

/** POST {noDeltaWhy?}: close the phase with its decision delta, or with a worded no-delta record. */
export const POST = route({ role: "author", params: { slug: phaseSlug }, body: closePhaseRequest }, ({ actor, params, body }) =>
  closePhase(actor, params.slug, body),
);
