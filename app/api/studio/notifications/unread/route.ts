import { route } from "@/lib/api/route";
import { markNotificationUnread } from "@/lib/notifications/notifications";
import { markUnreadRequest } from "@/lib/validations/notifications";

/** POST { id }: mark one of the signed-in person's notifications unread again; answers the list after. */
export const POST = route({ body: markUnreadRequest }, ({ actor, body }) => markNotificationUnread(actor.id, body.id));
