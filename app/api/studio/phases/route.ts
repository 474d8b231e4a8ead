import { handle, json } from "@/lib/api/respond";
import { requireActor } from "@/lib/auth/actor";
import { listPhases } from "@/lib/studio/phases";

/** GET: every phase with its notes, decision delta and what closing it would need. */
export const GET = handle(async (request: Request) => {
  const actor = await requireActor(request);
  return json(await listPhases(actor));
});
