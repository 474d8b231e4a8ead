import "server-only";
import { config } from "@/lib/env";
import { ApiError } from "@/lib/rules/api-errors";
import type { StudioActor } from "@/lib/rules/identity";
import type { AddWebhookRequest } from "@/lib/validations/webhooks";
import type { EventType } from "@/lib/validations/webhook-events";
import { webhookOutbox } from "./index";
import type { Delivery, DeliveryStatus } from "./outbox";
import { addSubscription, envReceiverKey, listSubscriptions, removeSubscription, studioReceiverKey } from "./receivers";

/**
 * The studio's view of outgoing webhooks (/studio/webhooks, GET /api/studio/webhooks): who receives
 * them, and the delivery log (status, attempts, last answer or error). A receiver's address is
 * shown as its origin only: a chat service's hook URL is itself a credential. Secrets never leave.
 */

export type ReceiverView = {
  key: string;
  source: "environment" | "studio";
  id: string | null;
  address: string;
  events: EventType[];
  created: string | null;
  by: string | null;
};

export type DeliveryView = {
  id: string;
  event: { id: string; type: EventType; text: string };
  receiver: { key: string; address: string };
  status: DeliveryStatus;
  attempts: number;
  created: string;
  nextAt: string | null;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
};

export type WebhooksView = { receivers: ReceiverView[]; deliveries: DeliveryView[] };

/** https://hooks.example.org/services/T0/B0/secret → https://hooks.example.org/… */
export function addressOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname === "/" && !u.search ? u.origin : `${u.origin}/…`;
  } catch {
    return "(not a URL)";
  }
}

const deliveryView = (d: Delivery): DeliveryView => ({
  id: d.id,
  event: d.event,
  receiver: { key: d.receiver.key, address: addressOf(d.receiver.url) },
  status: d.status,
  attempts: d.attempts,
  created: d.created,
  nextAt: d.status === "pending" ? d.nextAt : null,
  lastAttemptAt: d.lastAttemptAt,
  lastStatus: d.lastStatus,
  lastError: d.lastError,
  deliveredAt: d.deliveredAt,
});

export async function webhooksView(limit = 200): Promise<WebhooksView> {
  const { webhooks } = config();
  const receivers: ReceiverView[] = [
    ...webhooks.urls.map((url) => ({
      key: envReceiverKey(url),
      source: "environment" as const,
      id: null,
      address: addressOf(url),
      events: [],
      created: null,
      by: null,
    })),
    ...(await listSubscriptions()).map((s) => ({
      key: studioReceiverKey(s.id),
      source: "studio" as const,
      id: s.id,
      address: addressOf(s.url),
      events: s.events,
      created: s.created,
      by: s.by,
    })),
  ];
  const deliveries = (await (await webhookOutbox()).deliveries(limit)).map(deliveryView);
  return { receivers, deliveries };
}

export async function addWebhook(actor: StudioActor, request: AddWebhookRequest): Promise<ReceiverView> {
  const s = await addSubscription({ url: request.url, secret: request.secret, events: request.events }, actor.id);
  return { key: studioReceiverKey(s.id), source: "studio", id: s.id, address: addressOf(s.url), events: s.events, created: s.created, by: s.by };
}

export async function removeWebhook(actor: StudioActor, id: string): Promise<{ removed: string }> {
  if (!(await removeSubscription(id, actor.id)))
    throw new ApiError(404, "not-found", `there is no webhook ${id} (a receiver set by WEBHOOK_URLS is removed from the environment)`);
  return { removed: id };
}

/** A subscription id from the URL (12 hex characters); anything else answers 404. */
export function webhookIdParam(raw: string): string {
  const id = raw.toLowerCase();
  if (!/^[0-9a-f]{12}$/.test(id)) throw new ApiError(404, "not-found", `"${raw}" is not a webhook id (expected 12 hex characters)`);
  return id;
}
