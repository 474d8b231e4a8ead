import { z } from "zod";

/**
 * Notification mail's configuration (lib/notifications/mailer.ts): SMTP_URL turns it on. Its
 * value may carry a password, so a bad one is never echoed.
 */

export const MAIL_ENV_KEYS = ["SMTP_URL", "MAIL_FROM"] as const;
export const MAIL_SECRET_KEYS = new Set<string>(["SMTP_URL"]);

const SMTP = "must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.org:587";

export const mailEnvSchema = z.object({
  SMTP_URL: z
    .string()
    .refine((s) => {
      try {
        const u = new URL(s);
        return (u.protocol === "smtp:" || u.protocol === "smtps:") && u.hostname !== "";
      } catch {
        return false;
      }
    }, SMTP)
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .regex(/^(?:[^<>@\r\n]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/, 'must be an address, or a name and <address>, e.g. "Field Notes <notes@example.org>"')
    .optional(),
});

export type MailConfig = { smtpUrl: string; from: string } | null;

export function mailConfigOf(env: z.infer<typeof mailEnvSchema>, siteUrl: string | null): MailConfig {
  if (!env.SMTP_URL) return null;
  const host = siteUrl ? new URL(siteUrl).hostname : "localhost";
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? `Field Notes <notifications@${host}>` };
}
