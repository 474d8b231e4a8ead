import { route } from "@/lib/api/route";
import { listPhases } from "@/lib/studio/phases";

/** GET: every phase with its notes, decision delta and what closing it would need. */
export const GET = route({}, ({ actor }) => listPhases(actor));
