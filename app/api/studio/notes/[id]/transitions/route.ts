import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { changeStatus } from "@/lib/studio/change-status";
import { noteIdParam } from "@/lib/studio/refs";
import { changeStatusRequest } from "@/lib/validations/studio";

/** POST {to, revision, reason?, superseded_by?}: a status change, refused (422) with every unmet requirement. */

type Context = { params: Promise<{ id: string }> };

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "author");
  const id = noteIdParam((await params).id);
  const body = await parseBody(request, changeStatusRequest);
  return json(await changeStatus(actor, id, body));
});
