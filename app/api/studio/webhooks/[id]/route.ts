import { z } from "zod";
import { route } from "@/lib/api/route";
import { removeWebhook, webhookIdParam } from "@/lib/webhooks/studio";

/** DELETE: remove a receiver an author added (one set by WEBHOOK_URLS is removed from the environment). */
export const DELETE = route({ role: "author", params: { id: z.string().transform((raw) => webhookIdParam(raw)) } }, ({ actor, params }) =>
  removeWebhook(actor, params.id),
);
