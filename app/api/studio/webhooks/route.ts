import { route } from "@/lib/api/route";
import { addWebhookRequest } from "@/lib/validations/webhooks";
import { addWebhook, webhooksView } from "@/lib/webhooks/studio";

/** GET: the webhook receivers and the delivery log (authors). POST {url, secret, events?}: add a receiver (201). */
export const GET = route({ role: "author" }, () => webhooksView());

export const POST = route({ role: "author", body: addWebhookRequest, status: 201 }, ({ actor, body }) => addWebhook(actor, body));
