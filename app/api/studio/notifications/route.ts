import { route } from "@/lib/api/route";
import { notificationsOf } from "@/lib/notifications/notifications";

/** GET: the signed-in person's notifications, newest first, each read or not, and the unread count. */
export const GET = route({}, ({ actor }) => notificationsOf(actor.id));
