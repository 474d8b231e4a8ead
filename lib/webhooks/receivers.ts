import { createHash, randomBytes } from "node:crypto";
import { config } from "@/lib/env";
import { readAccounts, updateAccounts } from "@/lib/auth/account-file";
import type { EventType } from "@/lib/validations/webhook-events";
import type { Receiver } from "./outbox";
import type { Subscription } from "@/lib/validations/webhook-subscription";

/**
 * Who receives webhooks: each of WEBHOOK_URLS (signed with WEBHOOK_SECRET), and each subscription
 * an author added in the studio (kept in the accounts store, shared by every instance of a site).
 */

export const envReceiverKey = (url: string) => `env:${createHash("sha256").update(url).digest("hex").slice(0, 12)}`;
export const studioReceiverKey = (id: string) => `studio:${id}`;

export async function currentReceivers(): Promise<Receiver[]> {
  const { webhooks, dataDir } = config();
  const fromEnv = webhooks.secret ? webhooks.urls.map((url) => ({ key: envReceiverKey(url), url, secret: webhooks.secret!, events: [] })) : [];
  const fromStudio = ((await readAccounts(dataDir)).webhooks ?? []).map((s) => ({
    key: studioReceiverKey(s.id),
    url: s.url,
    secret: s.secret,
    events: s.events,
  }));
  return [...fromEnv, ...fromStudio];
}

/** The studio's subscriptions, as stored (secrets included: callers show only what they must). */
export async function listSubscriptions(): Promise<Subscription[]> {
  return (await readAccounts(config().dataDir)).webhooks ?? [];
}

export async function addSubscription(input: { url: string; secret: string; events: EventType[] }, by: string): Promise<Subscription> {
  const subscription: Subscription = { id: randomBytes(6).toString("hex"), ...input, created: new Date().toISOString(), by };
  await updateAccounts(
    config().dataDir,
    (data) => {
      data.webhooks = [...(data.webhooks ?? []), subscription];
    },
    `Add webhook ${subscription.id} (by ${by})`,
  );
  return subscription;
}

/** Removes a subscription; false when there is none of that id. */
export async function removeSubscription(id: string, by: string): Promise<boolean> {
  return updateAccounts(
    config().dataDir,
    (data) => {
      const before = data.webhooks ?? [];
      data.webhooks = before.filter((s) => s.id !== id);
      return data.webhooks.length !== before.length;
    },
    `Remove webhook ${id} (by ${by})`,
  );
}
