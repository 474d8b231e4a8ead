import { handle, json, parseBody } from "@/lib/api/respond";
import { requireActor } from "@/lib/auth/actor";
import { closePhase } from "@/lib/studio/phases";
import { closePhaseRequest } from "@/lib/validations/phase";

/** POST {noDeltaWhy?}: close the phase with its decision delta, or with a worded no-delta record. */

type Context = { params: Promise<{ slug: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "author");
  const { slug } = await params;
  const body = await parseBody(request, closePhaseRequest);
  return json(await closePhase(actor, slug, body));
});
