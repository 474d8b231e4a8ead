import "server-only";
import { ApiError } from "@/lib/rules/api-errors";
import type { DisplayNameRequest } from "@/lib/validations/account";
import { setDisplayName } from "./accounts";
import type { StudioActor } from "@/lib/rules/identity";

/**
 * A person sets their own display name from the studio. Only a local account has one to set: an
 * allow-listed OAuth identity is named by its provider.
 */
export async function setOwnDisplayName(actor: StudioActor, request: DisplayNameRequest): Promise<{ id: string; displayName: string }> {
  if (actor.id.includes(":")) {
    throw new ApiError(403, "forbidden", `${actor.id} signs in through its provider and has no account here to name; its provider's name is shown`);
  }
  return { id: actor.id, displayName: await setDisplayName(actor.id, request.displayName) };
}
