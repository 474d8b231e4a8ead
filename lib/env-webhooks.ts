import { z } from "zod";
import { WEBHOOK_SECRET_MIN, webhookUrlProblem } from "@/lib/validations/webhooks";

/**
 * Outgoing webhooks set by environment: every event goes to each of WEBHOOK_URLS, signed with
 * WEBHOOK_SECRET. Checked at start with lib/env.ts, so a typo stops the server with the variable's
 * name rather than losing events later. Subscriptions added by authors in the studio live in the
 * accounts store (lib/webhooks/subscriptions.ts), never here and never in the content repository.
 */

export type WebhookConfig = {
  urls: string[];
  /** Signs every delivery to `urls` (null only when there are none). */
  secret: string | null;
  /** How long one delivery may take before it counts as failed and is retried (WEBHOOK_TIMEOUT_SECONDS, default 10). */
  timeoutMs: number;
};

export const webhookEnvSchema = z.object({
  WEBHOOK_URLS: z
    .string()
    .transform((list, ctx) => {
      const urls = list.split(/[\s,]+/).filter(Boolean);
      const problems = urls.map(webhookUrlProblem).filter((p) => p !== null);
      if (problems.length || !urls.length) {
        ctx.addIssue({
          code: "custom",
          message: problems.length
            ? `must be a comma-separated list of http(s) URLs: ${problems.join("; ")}`
            : "must name at least one URL, e.g. https://chat.example.org/hooks/notes",
        });
        return z.NEVER;
      }
      return urls;
    })
    .optional(),
  WEBHOOK_SECRET: z.string().min(WEBHOOK_SECRET_MIN, `must be at least ${WEBHOOK_SECRET_MIN} characters (for example: openssl rand -hex 32)`).optional(),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce
    .number({ error: "must be a number of seconds, e.g. 10" })
    .min(1, "must be from 1 to 120 seconds")
    .max(120, "must be from 1 to 120 seconds")
    .optional(),
});

export const WEBHOOK_ENV_KEYS = Object.keys(webhookEnvSchema.shape) as (keyof typeof webhookEnvSchema.shape)[];

export function webhookConfigOf(env: z.infer<typeof webhookEnvSchema>): { ok: true; config: WebhookConfig } | { ok: false; problems: string[] } {
  const urls = env.WEBHOOK_URLS ?? [];
  if (urls.length && !env.WEBHOOK_SECRET) {
    return { ok: false, problems: ["WEBHOOK_SECRET: must be set with WEBHOOK_URLS: every delivery is signed (X-Hub-Signature-256), and receivers check it"] };
  }
  return { ok: true, config: { urls, secret: env.WEBHOOK_SECRET ?? null, timeoutMs: (env.WEBHOOK_TIMEOUT_SECONDS ?? 10) * 1000 } };
}
