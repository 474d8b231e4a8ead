import { phaseSlug, route } from "@/lib/api/route";
import { reopenPhase } from "@/lib/studio/phases";
import { reopenPhaseRequest } from "@/lib/validations/phase";

/** POST {reason}: reopen a closed phase; the reason is kept in the phase file. */
export const POST = route({ role: "author", params: { slug: phaseSlug }, body: reopenPhaseRequest }, ({ actor, params, body }) =>
  reopenPhase(actor, params.slug, body),
);
