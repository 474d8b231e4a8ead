import path from "node:path";
import { z } from "zod";
import { parseHostPort } from "@/lib/web/host-port";
import { trustEntryProblem } from "@/lib/web/client-address";
import { webhookConfigOf, webhookEnvSchema, WEBHOOK_ENV_KEYS, type WebhookConfig } from "@/lib/env-webhooks";
import { authEnvSchema, authConfigOf, AUTH_ENV_KEYS, SECRET_ENV_KEYS, type AuthConfig } from "./env-auth";
import { mailEnvSchema, mailConfigOf, MAIL_ENV_KEYS, MAIL_SECRET_KEYS, type MailConfig } from "./env-mail";

/**
 * Configuration by environment, validated once. A bad variable stops start-up with a message that
 * names it; nothing else in the app reads process.env for these.
 */

const schema = z.object({
  DATA_DIR: z.string().min(1, "must be a folder path").optional(),
  CONTENT_REPO: z.string().min(1, "must be a path to a bare git repository").optional(),
  SITE_URL: z.url("must be an absolute http(s) URL, e.g. https://notes.example.org").optional(),
  // Comma-separated host[:port] list; each entry must read as a Host header would.
  ALLOWED_HOSTS: z
    .string()
    .transform((list, ctx) => {
      const entries = list
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      const bad = entries.filter((e) => parseHostPort(e) === null);
      if (bad.length || !entries.length) {
        ctx.addIssue({
          code: "custom",
          message: bad.length
            ? `must be a comma-separated list of host or host:port, e.g. notes.example.org,localhost:3000; not a host: ${bad.map((b) => `"${b}"`).join(", ")}`
            : "must name at least one host, e.g. notes.example.org",
        });
        return z.NEVER;
      }
      return entries.map((e) => parseHostPort(e)!);
    })
    .optional(),
  // The WebSub hub the feeds name and a publish pings (docs/decisions/websub-on-publish.md).
  WEBSUB_HUB: z.url("must be the hub's absolute http(s) URL, e.g. https://pubsubhubbub.appspot.com/").optional(),
  PORT: z.coerce.number().int().min(1).max(65535, "must be a TCP port (1-65535)").optional(),
  // Comma-separated addresses or CIDR ranges of the reverse proxies in front of the app.
  TRUST_PROXY: z
    .string()
    .transform((list, ctx) => {
      const entries = list
        .split(",")
        .map((e) => e.trim())
        .filter(Boolean);
      const problems = entries.map(trustEntryProblem).filter((p) => p !== null);
      if (problems.length) {
        ctx.addIssue({
          code: "custom",
          message: `must be a comma-separated list of proxy addresses or CIDR ranges, e.g. 127.0.0.1,10.0.0.0/8: ${problems.join("; ")}`,
        });
        return z.NEVER;
      }
      return entries;
    })
    .optional(),
  // How many reviewers approve a promotion or a change to a verified note (docs/decisions/verified-means-reviewed.md).
  REVIEW_APPROVALS: z.coerce
    .number({ error: "must be a whole number of approvals, e.g. 1" })
    .int("must be a whole number of approvals, e.g. 1")
    .min(1, "must be at least 1: a verified note is always approved by someone")
    .max(9, "must be at most 9")
    .optional(),
  // Whether a mirror of CONTENT_REMOTE follows the remote's main when it is moved back (a force-push): 1 follows (logged), unset or 0 refuses.
  ALLOW_MAIN_REWIND: z.enum(["0", "1"], { error: "must be 1 (follow a force-pushed main) or 0 (refuse it, the default)" }).optional(),
  // Whether the studio's Import page may read a folder on the server (a file:// URL): 1 allows, unset or 0 refuses.
  IMPORT_ALLOW_LOCAL: z.enum(["0", "1"], { error: "must be 1 (the Import page may read file:// URLs) or 0 (refuse them, the default)" }).optional(),
  ...webhookEnvSchema.shape,
  ...authEnvSchema.shape,
  ...mailEnvSchema.shape,
});

export type AppConfig = {
  dataDir: string;
  contentRepo: string;
  siteUrl: string | null;
  /** The WebSub hub (WEBSUB_HUB): named by every feed, pinged after a publish; null: none. */
  websubHub: string | null;
  /** The hosts this site answers for (ALLOWED_HOSTS), lower-cased; null: any host. */
  allowedHosts: string[] | null;
  /** The reverse proxies whose X-Forwarded-For hop is believed (TRUST_PROXY); empty: none, the socket is the client. */
  trustProxy: string[];
  /** Approvals a promotion or a verified change needs (REVIEW_APPROVALS, default 1). */
  reviewApprovals: number;
  /** ALLOW_MAIN_REWIND=1: a mirror follows the remote's main when it is moved back (logged loudly); otherwise it refuses. */
  allowMainRewind: boolean;
  /** IMPORT_ALLOW_LOCAL=1: the studio's Import page reads file:// URLs (folders on the server); otherwise refused. */
  importAllowLocal: boolean;
  auth: AuthConfig;
  /** Outgoing webhooks set by environment (WEBHOOK_URLS, WEBHOOK_SECRET, WEBHOOK_TIMEOUT_SECONDS). */
  webhooks: WebhookConfig;
  /** Notification mail (SMTP_URL, MAIL_FROM); null: no mail. */
  mail: MailConfig;
};

let cached: AppConfig | null = null;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>, cwd = process.cwd()): AppConfig {
  // Empty strings are how shells unset things; treat them as absent.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const result = schema.safeParse(present);
  if (!result.success) {
    const got = (key: string) => (SECRET_ENV_KEYS.has(key) || MAIL_SECRET_KEYS.has(key) || key === "WEBHOOK_SECRET" ? "a hidden value" : `"${present[key]}"`);
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got ${got(String(i.path[0]))})`);
    // Report the sign-in variables' combinations too, so one start-up names every bad variable.
    const auth = authConfigOf(present);
    throw new ConfigError(auth.ok ? problems : [...problems, ...auth.problems]);
  }
  const dataDir = path.resolve(cwd, result.data.DATA_DIR ?? ".data");
  const contentRepo = path.resolve(cwd, result.data.CONTENT_REPO ?? path.join(dataDir, "content.git"));
  const siteUrl = result.data.SITE_URL?.replace(/\/+$/, "") ?? null;
  const auth = authConfigOf(result.data);
  if (!auth.ok) throw new ConfigError(auth.problems);
  const webhooks = webhookConfigOf(result.data);
  if (!webhooks.ok) throw new ConfigError(webhooks.problems);
  return {
    dataDir,
    contentRepo,
    siteUrl,
    websubHub: result.data.WEBSUB_HUB ?? null,
    allowedHosts: result.data.ALLOWED_HOSTS ?? null,
    trustProxy: result.data.TRUST_PROXY ?? [],
    reviewApprovals: result.data.REVIEW_APPROVALS ?? 1,
    allowMainRewind: result.data.ALLOW_MAIN_REWIND === "1",
    importAllowLocal: result.data.IMPORT_ALLOW_LOCAL === "1",
    auth: auth.config,
    webhooks: webhooks.config,
    mail: mailConfigOf(result.data, siteUrl),
  };
}

export function config(): AppConfig {
  cached ??= parseConfig({
    DATA_DIR: process.env.DATA_DIR,
    CONTENT_REPO: process.env.CONTENT_REPO,
    SITE_URL: process.env.SITE_URL,
    WEBSUB_HUB: process.env.WEBSUB_HUB,
    ALLOWED_HOSTS: process.env.ALLOWED_HOSTS,
    PORT: process.env.PORT,
    TRUST_PROXY: process.env.TRUST_PROXY,
    REVIEW_APPROVALS: process.env.REVIEW_APPROVALS,
    ALLOW_MAIN_REWIND: process.env.ALLOW_MAIN_REWIND,
    IMPORT_ALLOW_LOCAL: process.env.IMPORT_ALLOW_LOCAL,
    ...Object.fromEntries(WEBHOOK_ENV_KEYS.map((k) => [k, process.env[k]])),
    ...Object.fromEntries(AUTH_ENV_KEYS.map((k) => [k, process.env[k]])),
    ...Object.fromEntries(MAIL_ENV_KEYS.map((k) => [k, process.env[k]])),
  });
  return cached;
}

/** Forget the parsed configuration (tests that change the environment between cases). */
export function resetConfig(): void {
  cached = null;
}
