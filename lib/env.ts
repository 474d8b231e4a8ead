import path from "node:path";
import { z } from "zod";
import { authEnvSchema, authConfigOf, AUTH_ENV_KEYS, SECRET_ENV_KEYS, type AuthConfig } from "./env-auth";

/**
 * Configuration by environment, validated once. A bad variable stops start-up with a message that
 * names it; nothing else in the app reads process.env for these.
 */

const schema = z.object({
  DATA_DIR: z.string().min(1, "must be a folder path").optional(),
  CONTENT_REPO: z.string().min(1, "must be a path to a bare git repository").optional(),
  SITE_URL: z.url("must be an absolute http(s) URL, e.g. https://notes.example.org").optional(),
  PORT: z.coerce.number().int().min(1).max(65535, "must be a TCP port (1-65535)").optional(),
  ...authEnvSchema.shape,
});

export type AppConfig = { dataDir: string; contentRepo: string; siteUrl: string | null; auth: AuthConfig };

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
    const got = (key: string) => (SECRET_ENV_KEYS.has(key) ? "a hidden value" : `"${present[key]}"`);
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
  return { dataDir, contentRepo, siteUrl, auth: auth.config };
}

export function config(): AppConfig {
  cached ??= parseConfig({
    DATA_DIR: process.env.DATA_DIR,
    CONTENT_REPO: process.env.CONTENT_REPO,
    SITE_URL: process.env.SITE_URL,
    PORT: process.env.PORT,
    ...Object.fromEntries(AUTH_ENV_KEYS.map((k) => [k, process.env[k]])),
  });
  return cached;
}

/** Forget the parsed configuration (tests that change the environment between cases). */
export function resetConfig(): void {
  cached = null;
}
