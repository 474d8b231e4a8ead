import { route } from "@/lib/api/route";
import { createPhase, listPhases } from "@/lib/studio/phases";
import { createPhaseRequest } from "@/lib/validations/phase";

/** GET: every phase with its notes, decision delta and what closing it would need. */
export const GET = route({}, ({ actor }) => listPhases(actor));

/** POST {name, description?}: a new open phase (authors), one commit on main; 201 with the phase. */
export const POST = route({ role: "author", body: createPhaseRequest, status: 201 }, ({ actor, body }) => createPhase(actor, body));
