import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { DEFAULT_BRANCH, openMirror, RefConflictError, remoteConfig, type ContentStore } from "@/lib/store";
import { subscriptionSchema } from "@/lib/validations/webhook-subscription";

/**
 * Accounts live in one JSON document (never in the content repository): names, roles, password
 * hashes, API token hashes and session epochs (lib/auth/sessions.ts).
 *
 * - Embedded (the default): the file DATA_DIR/accounts.json. Writers (the `user` CLI) take a lock
 *   file and replace the file by rename, so the server never reads half a file; readers re-read it
 *   only when it changed on disk.
 * - With ACCOUNTS_REMOTE: `accounts.json` on main of a private git repository of its own (as Gerrit
 *   keeps accounts in All-Users), mirrored at DATA_DIR/accounts.git through the same store as the
 *   content: every change is one commit, compare-and-swapped and pushed before it counts, and every
 *   instance fetches it on its poll (CONTENT_POLL_SECONDS) or at once on the signed webhook. So a
 *   token revoked on one instance is refused by every instance within one poll interval.
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
  /** How people see this account in commits, bylines, threads and history; absent: the login (`name`). */
  displayName: z.string().optional(),
  role: z.enum(["author", "reviewer"]),
  password: z.string(),
  created: z.string(),
  tokens: z.array(tokenSchema),
  /** Random; a new one ends every session of the account (sign-out). Absent in accounts made before sessions were bound. */
  sessionEpoch: z.string().optional(),
});

/** What a person keeps about their notifications (lib/notifications/person-settings.ts), by actor id: shared like the accounts. */
const personSchema = z.object({
  /** Every notification at or before this time is read; `read` names later ones marked read one by one. */
  readBefore: z.string().optional(),
  read: z.array(z.string()).optional(),
  /** Ids marked unread again, though `readBefore` covers them. */
  unread: z.array(z.string()).optional(),
  /** The secret of their Atom feed of notifications (SHA-256 only, as API tokens). */
  feed: z.object({ id: z.string(), hash: z.string(), created: z.string() }).optional(),
  email: z.string().optional(),
  /** Notification kinds not sent by e-mail. */
  mailOff: z.array(z.string()).optional(),
});

const fileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(accountSchema),
  /** The same, for allow-listed OAuth identities (which have no account): identity id → epoch. */
  identitySessionEpochs: z.record(z.string(), z.string()).optional(),
  /** Outgoing webhooks authors added in the studio (lib/webhooks/subscriptions.ts), secrets included. */
  webhooks: z.array(subscriptionSchema).optional(),
  people: z.record(z.string(), personSchema).optional(),
});

export type StoredToken = z.infer<typeof tokenSchema>;
export type Account = z.infer<typeof accountSchema>;
export type AccountsFile = z.infer<typeof fileSchema>;
export type PersonSettings = z.infer<typeof personSchema>;

/** The name people see: the account's display name, or its login when it has none (accounts made before display names). */
export const displayNameOf = (account: Pick<Account, "name" | "displayName">): string => account.displayName ?? account.name;

const empty = (): AccountsFile => ({ version: 1, accounts: [] });

/** A fresh session epoch: every session issued under the previous one ends. */
export const newSessionEpoch = () => randomBytes(16).toString("base64url");

export function accountsPath(dataDir: string): string {
  return path.join(dataDir, ACCOUNTS_FILE);
}

let cache: { file: string; stamp: string; data: AccountsFile } | null = null;

function parseAccounts(text: string, where: string): AccountsFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`${where} is not valid JSON (${(e as Error).message}); fix or remove it`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${where} is not an accounts file: ${issue?.path.join(".") || "top level"}: ${issue?.message}`);
  }
  return parsed.data;
}

/** The accounts as they are now (no accounts file yet is no accounts). */
export async function readAccounts(dataDir: string): Promise<AccountsFile> {
  if (remoteConfig().accounts) return readFromRepository(dataDir);
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
  const data = parseAccounts(await fs.readFile(file, "utf8"), file);
  cache = { file, stamp, data };
  return data;
}

/**
 * Read, change and write the accounts under the lock (embedded) or by compare-and-swap on the
 * accounts repository's main; `change` returns what the caller wants back. `what` is the commit's
 * message ("Revoke token 1a2b3c…"), never a secret.
 */
export async function updateAccounts<T>(dataDir: string, change: (data: AccountsFile) => T | Promise<T>, what = "Update accounts"): Promise<T> {
  if (remoteConfig().accounts) return updateRepository(dataDir, change, what);
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
    const age = await fs.stat(lockFile).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await fs.rm(lockFile, { force: true });
    else if (Date.now() - started > 10_000) throw new Error(`${lockFile} is held by another writer; try again, or remove it if no "user" command is running`);
    else await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
  }
}

// ---- accounts in a git repository of their own (ACCOUNTS_REMOTE) ----

// The accounts repository has one branch, the one a new repository starts on (it holds no notes,
// so it is not laid out as lib/working-copy/layout.ts says the content repository is).
export const ACCOUNTS_REF = DEFAULT_BRANCH;
const ACCOUNTS_BLOB = ACCOUNTS_FILE;
const WRITER = { name: "Field Notes accounts", email: "accounts@field-notes.invalid" };
const STORE = Symbol.for("field-notes.accounts-store");
type StoreMemo = { gitdir: string; store: Promise<ContentStore> };
const memo = globalThis as typeof globalThis & { [STORE]?: StoreMemo };

/** The accounts repository's local mirror, opened (and synced, and polled) once per process. */
export function getAccountsStore(dataDir: string): Promise<ContentStore> {
  const remote = remoteConfig().accounts;
  if (!remote) throw new Error("ACCOUNTS_REMOTE is not set: accounts live in DATA_DIR/accounts.json");
  const gitdir = path.join(dataDir, "accounts.git");
  const current = memo[STORE];
  if (current && current.gitdir === gitdir) return current.store;
  const store = openMirror(gitdir, {
    remote: { ...remote, namespaces: ["refs/heads/"] },
    seedDir: null,
    label: "accounts remote",
    pollSeconds: remoteConfig().pollSeconds,
  });
  memo[STORE] = { gitdir, store };
  store.catch(() => {
    if (memo[STORE]?.store === store) delete memo[STORE];
  });
  return store;
}

const byCommit = new Map<string, AccountsFile>();

async function readAt(store: ContentStore, head: string | null): Promise<AccountsFile> {
  if (head === null) return empty();
  const hit = byCommit.get(head);
  if (hit) return hit;
  const text = await store.readFile(head, ACCOUNTS_BLOB);
  const data = text === null ? empty() : parseAccounts(text, `${ACCOUNTS_BLOB} at ${head.slice(0, 12)} of the accounts repository`);
  if (byCommit.size > 16) byCommit.clear();
  byCommit.set(head, data);
  return data;
}

async function readFromRepository(dataDir: string): Promise<AccountsFile> {
  const store = await getAccountsStore(dataDir);
  return readAt(store, await store.resolve(ACCOUNTS_REF));
}

async function updateRepository<T>(dataDir: string, change: (data: AccountsFile) => T | Promise<T>, what: string): Promise<T> {
  const store = await getAccountsStore(dataDir);
  for (let attempt = 1; ; attempt++) {
    const head = await store.resolve(ACCOUNTS_REF);
    const data = structuredClone(await readAt(store, head));
    const before = JSON.stringify(data);
    const result = await change(data);
    const text = `${JSON.stringify(data, null, 2)}\n`;
    if (JSON.stringify(data) === before && head !== null) return result;
    try {
      await store.commit({ ref: ACCOUNTS_REF, expected: head, author: WRITER, message: `${what}\n`, changes: { [ACCOUNTS_BLOB]: text } });
      return result;
    } catch (e) {
      // Another instance changed the accounts first: the store has fetched its commit; apply ours again on it.
      if (e instanceof RefConflictError && attempt < 20) continue;
      throw e;
    }
  }
}
