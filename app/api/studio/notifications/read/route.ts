import { route } from "@/lib/api/route";
import { markNotificationsRead } from "@/lib/notifications/notifications";
import { markReadRequest } from "@/lib/validations/notifications";

/** POST { ids } or { all: true }: mark the signed-in person's notifications read; answers the list after. */
export const POST = route({ body: markReadRequest }, ({ actor, body }) => markNotificationsRead(actor.id, body));
