import { route } from "@/lib/api/route";
import { notificationSettings, saveMailSettings } from "@/lib/notifications/settings";
import { mailSettingsRequest } from "@/lib/validations/notifications";

/** GET: the signed-in person's mail choices and whether they have a feed address. */
export const GET = route({}, ({ actor }) => notificationSettings(actor.id));

/** PUT { email, off }: where their notification mail goes and the kinds not mailed. */
export const PUT = route({ body: mailSettingsRequest }, ({ actor, body }) => saveMailSettings(actor.id, body));
