import { z } from "zod";
import { EVENT_TYPES } from "@/lib/validations/webhook-events";

/** Request bodies of the webhook endpoints (/api/studio/webhooks/…), and the one rule for a receiver's address. */

export const WEBHOOK_SECRET_MIN = 16;

/** A receiver's address, or why it is not one. */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `"${raw}" is not an absolute URL (e.g. https://chat.example.org/hooks/notes)`;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return `"${raw}" is not an http(s) URL`;
  if (url.username || url.password) return `"${url.host}…" carries a user name or password; put the credential in the path or rely on the signature`;
  return null;
}

export const addWebhookRequest = z
  .object({
    url: z
      .string()
      .trim()
      .max(2000, "at most 2,000 characters")
      .superRefine((url, ctx) => {
        const problem = webhookUrlProblem(url);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      }),
    secret: z
      .string()
      .min(WEBHOOK_SECRET_MIN, `the secret signs every delivery: at least ${WEBHOOK_SECRET_MIN} characters (for example: openssl rand -hex 32)`)
      .max(256, "at most 256 characters"),
    /** The events it is sent; empty or left out: all of them. */
    events: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).default([]),
  })
  .strict();
export type AddWebhookRequest = z.infer<typeof addWebhookRequest>;
