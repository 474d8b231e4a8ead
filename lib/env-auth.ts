import { z } from "zod";
import type { Role } from "@/lib/rules/status-machine";

/**
 * Sign-in configuration by environment. Local accounts (DATA_DIR/accounts.json) always work; an
 * OAuth provider turns on when its variables are set, and only identities on the allow-list
 * (AUTH_ALLOW) get in, each with the role the list gives it.
 */

export type { Role };
export type OAuthProviderId = "github" | "oidc";
export type AllowEntry = { provider: OAuthProviderId; identity: string; role: Role };

export type AuthConfig = {
  /** NEXTAUTH_SECRET or AUTH_SECRET; null: one is generated into DATA_DIR on first start. */
  secret: string | null;
  /** The public origin next-auth builds callback URLs on (NEXTAUTH_URL, else SITE_URL). */
  url: string | null;
  github: { clientId: string; clientSecret: string } | null;
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | null;
  allow: AllowEntry[];
};

const secret = z.string().min(32, "must be at least 32 characters (for example: openssl rand -base64 32)").optional();
const word = (what: string) => z.string().trim().min(1, `must be the ${what}`).optional();

export const authEnvSchema = z.object({
  NEXTAUTH_SECRET: secret,
  AUTH_SECRET: secret,
  NEXTAUTH_URL: z.url("must be the site's absolute URL, e.g. https://notes.example.org").optional(),
  GITHUB_ID: word("GitHub OAuth app's client id"),
  GITHUB_SECRET: word("GitHub OAuth app's client secret"),
  OIDC_ISSUER: z.url("must be the issuer URL, e.g. https://accounts.example.org").optional(),
  OIDC_CLIENT_ID: word("client id registered with the issuer"),
  OIDC_CLIENT_SECRET: word("client secret registered with the issuer"),
  OIDC_NAME: word("name shown on the sign-in button"),
  AUTH_ALLOW: z.string().optional(),
});

export const AUTH_ENV_KEYS = Object.keys(authEnvSchema.shape) as (keyof typeof authEnvSchema.shape)[];
/** Values never echoed back in an error message. */
export const SECRET_ENV_KEYS: ReadonlySet<string> = new Set(["NEXTAUTH_SECRET", "AUTH_SECRET", "GITHUB_SECRET", "OIDC_CLIENT_SECRET"]);

type AuthEnv = z.infer<typeof authEnvSchema> & { SITE_URL?: string };

export function authConfigOf(env: AuthEnv): { ok: true; config: AuthConfig } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  const pair = (names: string[], values: (string | undefined)[]) => {
    const set = values.filter(Boolean).length;
    if (set > 0 && set < values.length) {
      const missing = names.filter((_, i) => !values[i]);
      problems.push(`${missing.join(", ")}: must be set together with ${names.filter((n) => !missing.includes(n)).join(", ")}`);
      return false;
    }
    return set === values.length;
  };
  const github = pair(["GITHUB_ID", "GITHUB_SECRET"], [env.GITHUB_ID, env.GITHUB_SECRET])
    ? { clientId: env.GITHUB_ID!, clientSecret: env.GITHUB_SECRET! }
    : null;
  const oidc = pair(["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"], [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET])
    ? {
        issuer: env.OIDC_ISSUER!.replace(/\/+$/, ""),
        clientId: env.OIDC_CLIENT_ID!,
        clientSecret: env.OIDC_CLIENT_SECRET!,
        name: env.OIDC_NAME ?? "OpenID Connect",
      }
    : null;

  const allow = parseAllowList(env.AUTH_ALLOW ?? "", problems);
  for (const [id, on] of [
    ["github", github],
    ["oidc", oidc],
  ] as const) {
    if (on && !allow.some((a) => a.provider === id)) {
      problems.push(
        `AUTH_ALLOW: names no ${id} identity, so nobody could sign in with ${id} (add e.g. ${id}:${id === "github" ? "octocat" : "alice@example.org"}=author)`,
      );
    }
    if (!on && allow.some((a) => a.provider === id)) {
      problems.push(
        `AUTH_ALLOW: lists ${id} identities but ${id === "github" ? "GITHUB_ID and GITHUB_SECRET are" : "OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are"} not set`,
      );
    }
  }
  if (problems.length) return { ok: false, problems };
  const url = (env.NEXTAUTH_URL ?? env.SITE_URL)?.replace(/\/+$/, "") ?? null;
  return { ok: true, config: { secret: env.NEXTAUTH_SECRET ?? env.AUTH_SECRET ?? null, url, github, oidc, allow } };
}

/** "github:octocat=author, oidc:alice@example.org=reviewer" → entries; identities compare case-insensitively. */
export function parseAllowList(text: string, problems: string[]): AllowEntry[] {
  const entries: AllowEntry[] = [];
  const items = text
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);
  items.forEach((item, i) => {
    const m = /^(github|oidc):([^=\s]+)=(author|reviewer)$/.exec(item);
    if (!m) {
      problems.push(
        `AUTH_ALLOW: entry ${i + 1} "${item}" must look like provider:identity=role, with provider github or oidc and role author or reviewer (e.g. github:octocat=author)`,
      );
      return;
    }
    const entry = { provider: m[1] as OAuthProviderId, identity: (m[2] ?? "").toLowerCase(), role: m[3] as Role };
    if (entries.some((e) => e.provider === entry.provider && e.identity === entry.identity)) {
      problems.push(`AUTH_ALLOW: ${entry.provider}:${entry.identity} is listed twice`);
      return;
    }
    entries.push(entry);
  });
  return entries;
}
