import { route } from "@/lib/api/route";
import { setOwnDisplayName } from "@/lib/auth/own-display-name";
import { displayNameRequest } from "@/lib/validations/account";

/** GET: who is signed in. PUT {displayName}: the signed-in account's own display name (commits, bylines, threads). */
export const GET = route({}, async ({ actor }) => ({ id: actor.id, displayName: actor.name, role: actor.role }));

export const PUT = route({ body: displayNameRequest }, ({ actor, body }) => setOwnDisplayName(actor, body));
