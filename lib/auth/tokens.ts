import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/env";
import { readAccounts, updateAccounts, type Account, type StoredToken } from "./account-file";
import { AccountError } from "./accounts";

/**
 * API tokens for scripts and agents: `fnt_<id>_<secret>`. The token is shown once when it is made;
 * the accounts file keeps only its SHA-256 (a 256-bit random secret needs no slow hash) and the id,
 * which is how a token is named when it is revoked.
 */

const TOKEN = /^fnt_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

const digest = (token: string) => createHash("sha256").update(token).digest("hex");
const dataDir = () => config().dataDir;

export async function issueToken(name: string, label?: string): Promise<{ id: string; token: string }> {
  const id = randomBytes(6).toString("hex");
  const token = `fnt_${id}_${randomBytes(32).toString("base64url")}`;
  await updateAccounts(
    dataDir(),
    (data) => {
      const account = data.accounts.find((a) => a.name === name);
      if (!account) throw new AccountError(`there is no account named "${name}"`);
      const record: StoredToken = { id, hash: digest(token), created: new Date().toISOString(), revoked: null };
      if (label) record.label = label;
      account.tokens.push(record);
    },
    `Issue token ${id} to ${name}`,
  );
  return { id, token };
}

/**
 * Revoke by token id (one token) or by account name (all of its tokens). Answers the ids revoked.
 */
export async function revokeTokens(nameOrId: string): Promise<string[]> {
  return updateAccounts(
    dataDir(),
    (data) => {
      const now = new Date().toISOString();
      const account = data.accounts.find((a) => a.name === nameOrId);
      const live = (t: StoredToken) => t.revoked === null;
      const targets = account ? account.tokens.filter(live) : data.accounts.flatMap((a) => a.tokens).filter((t) => t.id === nameOrId && live(t));
      if (targets.length === 0) {
        throw new AccountError(account ? `${nameOrId} has no live tokens` : `no account and no live token is named "${nameOrId}" (see: npm run user -- list)`);
      }
      for (const t of targets) t.revoked = now;
      return targets.map((t) => t.id);
    },
    `Revoke the live tokens named by ${nameOrId}`,
  );
}

/** The account a bearer token belongs to, or null for an unknown, malformed or revoked token. */
export async function accountOfToken(token: string): Promise<{ account: Account; tokenId: string } | null> {
  const m = TOKEN.exec(token.trim());
  if (!m) return null;
  const id = m[1] ?? "";
  const want = Buffer.from(digest(token.trim()), "hex");
  for (const account of (await readAccounts(dataDir())).accounts) {
    const record = account.tokens.find((t) => t.id === id);
    if (!record) continue;
    const have = Buffer.from(record.hash, "hex");
    if (record.revoked === null && have.length === want.length && timingSafeEqual(have, want)) return { account, tokenId: id };
    return null;
  }
  return null;
}
