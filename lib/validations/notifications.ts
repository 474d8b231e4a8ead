import { z } from "zod";
import { NOTIFICATION_KINDS } from "@/lib/rules/notification-kinds";

/** Request bodies of the notifications API, shared by the studio's forms and the route handlers. */

const notificationId = z.string().regex(/^[0-9a-f]{12}$/, "a notification id is 12 hexadecimal characters");

/** POST /api/studio/notifications/read: the notifications named, or all of them. */
export const markReadRequest = z.union(
  [
    z.object({ ids: z.array(notificationId).min(1, "name at least one notification").max(200, "at most 200 at a time") }).strict(),
    z.object({ all: z.literal(true) }).strict(),
  ],
  { error: 'send { "ids": [...] } or { "all": true }' },
);
export type MarkReadRequest = z.infer<typeof markReadRequest>;

/** POST /api/studio/notifications/unread: one notification read by mistake. */
export const markUnreadRequest = z.object({ id: notificationId }).strict();

/** PUT /api/studio/notifications/settings: where mail goes, and the kinds not mailed. */
export const mailSettingsRequest = z
  .object({
    email: z
      .string()
      .trim()
      .max(254, "at most 254 characters")
      .refine((s) => s === "" || z.email().safeParse(s).success, "must be an e-mail address, or empty for none")
      .transform((s) => (s ? s : null)),
    off: z.array(z.enum(NOTIFICATION_KINDS, { error: `must be one of: ${NOTIFICATION_KINDS.join(", ")}` })).max(NOTIFICATION_KINDS.length),
  })
  .strict();
export type MailSettingsRequest = z.infer<typeof mailSettingsRequest>;

/** POST / DELETE /api/studio/notifications/feed: nothing to say but the wish ({}). */
export const feedAddressRequest = z.object({}).strict();
