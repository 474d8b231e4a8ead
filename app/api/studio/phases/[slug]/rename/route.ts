import { phaseSlug, route } from "@/lib/api/route";
import { renamePhase } from "@/lib/studio/phases";
import { renamePhaseRequest } from "@/lib/validations/phase";

/** POST {name}: show the phase by a new name (authors); its slug and the name notes carry stay. One commit on main. */
export const POST = route({ role: "author", params: { slug: phaseSlug }, body: renamePhaseRequest }, ({ actor, params, body }) =>
  renamePhase(actor, params.slug, body),
);
