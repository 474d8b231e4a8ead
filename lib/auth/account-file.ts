import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";

/**
 * Local accounts live in one JSON file under DATA_DIR (never in the content repository): names,
 * roles, password hashes and API token hashes. Writers (the `user` CLI) take a lock file and
 * replace the file by rename, so the server never reads half a file; readers re-read it only when
 * it changed on disk.
 */

export const ACCOUNTS_FILE = "accounts.json";

const tokenSchema = z.object({
  id: z.string(),
  hash: z.string(),
  created: z.string(),
  revoked: z.string().nullable(),
  label: z.string().optional(),
});

const accountSchema = z.object({
  name: z.string(),
  role: z.enum(["author", "reviewer"]),
  password: z.string(),
  created: z.string(),
  tokens: z.array(tokenSchema),
});

const fileSchema = z.object({ version: z.literal(1), accounts: z.array(accountSchema) });

export type StoredToken = z.infer<typeof tokenSchema>;
export type Account = z.infer<typeof accountSchema>;
export type AccountsFile = z.infer<typeof fileSchema>;

const empty = (): AccountsFile => ({ version: 1, accounts: [] });

export function accountsPath(dataDir: string): string {
  return path.join(dataDir, ACCOUNTS_FILE);
}

let cache: { file: string; stamp: string; data: AccountsFile } | null = null;

/** The accounts as they are on disk now (an absent file is no accounts). */
export async function readAccounts(dataDir: string): Promise<AccountsFile> {
  const file = accountsPath(dataDir);
  let stamp: string;
  try {
    const st = await fs.stat(file);
    stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return empty();
    throw e;
  }
  if (cache && cache.file === file && cache.stamp === stamp) return cache.data;
  const text = await fs.readFile(file, "utf8");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}); fix or remove it`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file} is not an accounts file: ${issue?.path.join(".") || "top level"}: ${issue?.message}`);
  }
  cache = { file, stamp, data: parsed.data };
  return parsed.data;
}

/** Read, change and write the accounts under the lock; `change` returns what the caller wants back. */
export async function updateAccounts<T>(dataDir: string, change: (data: AccountsFile) => T | Promise<T>): Promise<T> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = accountsPath(dataDir);
  const release = await lock(`${file}.lock`);
  try {
    cache = null;
    const data = structuredClone(await readAccounts(dataDir));
    const result = await change(data);
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    await fs.writeFile(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(tmp, file);
    cache = null;
    return result;
  } finally {
    await release();
  }
}

const STALE_LOCK_MS = 30_000;

async function lock(lockFile: string): Promise<() => Promise<void>> {
  const started = Date.now();
  for (;;) {
    try {
      const handle = await fs.open(lockFile, "wx", 0o600);
      await handle.close();
      return () => fs.rm(lockFile, { force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    // A writer that crashed leaves its lock behind; after a while it is safe to take over.
    const age = await fs.stat(lockFile).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age > STALE_LOCK_MS) await fs.rm(lockFile, { force: true });
    else if (Date.now() - started > 10_000) throw new Error(`${lockFile} is held by another writer; try again, or remove it if no "user" command is running`);
    else await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
  }
}
