import { z } from "zod";
import type { NotificationList } from "@/lib/notifications/notifications";
import { NOTIFICATION_KINDS } from "@/lib/rules/notification-kinds";

/**
 * The answers of the notifications API as the studio reads them (beside ./bodies.ts, held equal to
 * the server's types the same way).
 */

const who = z.object({ id: z.string(), name: z.string() });
const kind = z.enum(NOTIFICATION_KINDS);

/** GET /api/studio/notifications and the mark-read answers (lib/notifications/notifications.ts). */
export const notificationListBody = z.object({
  unread: z.number(),
  items: z.array(
    z.object({
      id: z.string(),
      kind,
      to: z.string(),
      note: z.string(),
      title: z.string().nullable(),
      at: z.string(),
      by: who,
      href: z.string(),
      text: z.string(),
      excerpt: z.string().optional(),
      read: z.boolean(),
    }),
  ),
});

/** GET/PUT /api/studio/notifications/settings. */
export const notificationSettingsBody = z.object({
  mail: z.object({ email: z.string().nullable(), off: z.array(kind) }),
  /** Whether the site sends mail at all (SMTP_URL). */
  mailEnabled: z.boolean(),
  /** When the feed address was made; null: no feed. */
  feed: z.object({ created: z.string() }).nullable(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsBody>;

/** POST /api/studio/notifications/feed: the new secret address, shown once. */
export const feedAddressBody = z.object({ url: z.string(), created: z.string() });

/** GET /api/studio/people: who a mention can name (`name`, the login a mention inserts) and the name people see. */
export const peopleBody = z.object({ people: z.array(who.extend({ displayName: z.string() })) });

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsServer: [Same<z.infer<typeof notificationListBody>, NotificationList>] = [true];
void sameAsServer;
