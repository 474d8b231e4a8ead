import path from "node:path";
import { z } from "zod";

/**
 * Configuration by environment, validated once. A bad variable stops start-up with a message that
 * names it; nothing else in the app reads process.env for these.
 */

const schema = z.object({
  DATA_DIR: z.string().min(1, "must be a folder path").optional(),
  CONTENT_REPO: z.string().min(1, "must be a path to a bare git repository").optional(),
  SITE_URL: z.url("must be an absolute http(s) URL, e.g. https://notes.example.org").optional(),
  PORT: z.coerce.number().int().min(1).max(65535, "must be a TCP port (1-65535)").optional(),
});

export type AppConfig = { dataDir: string; contentRepo: string; siteUrl: string | null };

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
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message} (got "${present[String(i.path[0])]}")`));
  }
  const dataDir = path.resolve(cwd, result.data.DATA_DIR ?? ".data");
  const contentRepo = path.resolve(cwd, result.data.CONTENT_REPO ?? path.join(dataDir, "content.git"));
  return { dataDir, contentRepo, siteUrl: result.data.SITE_URL?.replace(/\/+$/, "") ?? null };
}

export function config(): AppConfig {
  cached ??= parseConfig({
    DATA_DIR: process.env.DATA_DIR,
    CONTENT_REPO: process.env.CONTENT_REPO,
    SITE_URL: process.env.SITE_URL,
    PORT: process.env.PORT,
  });
  return cached;
}
