import { z } from "zod";

/**
 * The git remotes' configuration, read once from the environment and validated like lib/env. The
 * credentials are never part of a message: a bad variable is named, its value is not shown.
 *
 *   CONTENT_REMOTE            http(s) smart-HTTP URL of the content repository (unset: the local one is the truth)
 *   CONTENT_REMOTE_USER       user name for basic auth (default "git")
 *   CONTENT_REMOTE_TOKEN      password or access token, handed to isomorphic-git's onAuth
 *   CONTENT_POLL_SECONDS      how often to fetch without a webhook (default 30)
 *   CONTENT_WEBHOOK_SECRET    HMAC-SHA256 secret of POST /api/hooks/git
 *   ACCOUNTS_REMOTE           http(s) URL of the private accounts repository (unset: DATA_DIR/accounts.json)
 *   ACCOUNTS_REMOTE_USER / ACCOUNTS_REMOTE_TOKEN   its credentials (default: the content remote's)
 */

const remoteUrl = z
  .string()
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), "must be an http(s) URL of a git repository served over smart HTTP")
  .refine(
    (v) => !URL.canParse(v) || (new URL(v).username === "" && new URL(v).password === ""),
    "must not carry credentials: use the _USER and _TOKEN variables",
  );

const schema = z.object({
  CONTENT_REMOTE: remoteUrl.optional(),
  CONTENT_REMOTE_USER: z.string().optional(),
  CONTENT_REMOTE_TOKEN: z.string().optional(),
  CONTENT_POLL_SECONDS: z.coerce.number().min(0.2, "must be a number of seconds ≥ 0.2").max(86_400, "must be at most 86400 (a day)").optional(),
  CONTENT_WEBHOOK_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  ACCOUNTS_REMOTE: remoteUrl.optional(),
  ACCOUNTS_REMOTE_USER: z.string().optional(),
  ACCOUNTS_REMOTE_TOKEN: z.string().optional(),
});

export type RemoteSettings = { url: string; user?: string; token?: string };
export type RemoteConfig = {
  content: RemoteSettings | null;
  accounts: RemoteSettings | null;
  pollSeconds: number;
  webhookSecret: string | null;
};

const SECRET = new Set(["CONTENT_REMOTE_TOKEN", "ACCOUNTS_REMOTE_TOKEN", "CONTENT_WEBHOOK_SECRET"]);

export function parseRemoteConfig(env: Record<string, string | undefined>): RemoteConfig {
  const present = Object.fromEntries(Object.keys(schema.shape).flatMap((k) => (env[k] ? [[k, env[k]]] : [])));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => {
      const key = String(i.path[0]);
      return `${key}: ${i.message}${SECRET.has(key) ? "" : ` (got "${present[key]}")`}`;
    });
    throw new Error(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  }
  const d = parsed.data;
  const content = d.CONTENT_REMOTE ? { url: d.CONTENT_REMOTE, user: d.CONTENT_REMOTE_USER, token: d.CONTENT_REMOTE_TOKEN } : null;
  const accounts = d.ACCOUNTS_REMOTE
    ? { url: d.ACCOUNTS_REMOTE, user: d.ACCOUNTS_REMOTE_USER ?? d.CONTENT_REMOTE_USER, token: d.ACCOUNTS_REMOTE_TOKEN ?? d.CONTENT_REMOTE_TOKEN }
    : null;
  return { content, accounts, pollSeconds: d.CONTENT_POLL_SECONDS ?? 30, webhookSecret: d.CONTENT_WEBHOOK_SECRET ?? null };
}

let cached: RemoteConfig | null = null;
export function remoteConfig(): RemoteConfig {
  cached ??= parseRemoteConfig(process.env);
  return cached;
}

/** Forget the parsed variables (tests that change the environment between cases). */
export function resetRemoteConfig(): void {
  cached = null;
}
