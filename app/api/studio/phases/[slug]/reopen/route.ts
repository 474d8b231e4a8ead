import { handle, json, parseBody } from "@/lib/api/respond";
import { requireActor } from "@/lib/auth/actor";
import { reopenPhase } from "@/lib/studio/phases";
import { reopenPhaseRequest } from "@/lib/validations/phase";

/** POST {reason}: reopen a closed phase; the reason is kept in the phase file. */

type Context = { params: Promise<{ slug: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "author");
  const { slug } = await params;
  const body = await parseBody(request, reopenPhaseRequest);
  return json(await reopenPhase(actor, slug, body));
});
