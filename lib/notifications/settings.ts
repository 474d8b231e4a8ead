import "server-only";
import { originFor } from "@/lib/origin";
import type { NotificationSettings } from "@/lib/validations/notification-answers";
import { mailEnabled } from "./mail-config";
import { issueFeedToken, mailSettingsOf, personSettings, revokeFeedToken, setMailSettings, type MailSettings } from "./person-settings";

/** A person's notification settings as the studio's settings page shows and changes them. */

export async function notificationSettings(personId: string): Promise<NotificationSettings> {
  const p = await personSettings(personId);
  return { mail: mailSettingsOf(p), mailEnabled: mailEnabled(), feed: p.feed ? { created: p.feed.created } : null };
}

export async function saveMailSettings(personId: string, mail: MailSettings): Promise<NotificationSettings> {
  await setMailSettings(personId, mail);
  return notificationSettings(personId);
}

/** The feed's path for a token: under the studio API, which nothing public links to or lists. */
export const feedPath = (token: string) => `/api/studio/notifications/feed/${token}`;

export async function newFeedAddress(personId: string, request: Request): Promise<{ url: string; created: string }> {
  const token = await issueFeedToken(personId);
  const created = (await personSettings(personId)).feed?.created ?? new Date().toISOString();
  return { url: `${originFor(request)}${feedPath(token)}`, created };
}

export async function dropFeedAddress(personId: string): Promise<NotificationSettings> {
  await revokeFeedToken(personId);
  return notificationSettings(personId);
}
