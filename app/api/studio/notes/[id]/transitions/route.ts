import { noteId, route } from "@/lib/api/route";
import { changeStatus } from "@/lib/studio/change-status";
import { changeStatusRequest } from "@/lib/validations/studio";

/** POST {to, revision, reason?, superseded_by?}: a status change, refused (422) with every unmet requirement. */
export const POST = route({ role: "author", params: { id: noteId }, body: changeStatusRequest }, ({ actor, params, body }) =>
  changeStatus(actor, params.id, body),
);
