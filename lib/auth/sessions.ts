import { createHash } from "node:crypto";
import { config } from "@/lib/env";
import { displayNameOf, newSessionEpoch, readAccounts, updateAccounts, type Account, type AccountsFile } from "./account-file";
import type { StudioActor } from "@/lib/rules/identity";

/**
 * Which sessions still count. A session cookie is a signed JWT holding the identity id (`sub`) and
 * the identity's session key (`sk`) as it was at sign-in; every request recomputes the key from the
 * accounts store and refuses the session when they differ. The key is a digest of everything whose
 * change must end a session: for an account its name, creation time, role, password hash and
 * session epoch; for an allow-listed identity its id, role and epoch. So a new password or role, a
 * removed (or removed and re-added) account, and a sign-out (which draws a new epoch) each end every
 * session of that identity, on every instance that reads the same accounts store, whether the
 * change came through `npm run user` or a hand edit of the accounts file.
 * See docs/decisions/sessions-bound-to-the-account.md.
 */

export type SessionClaims = { sub: string; sk: string };

const digest = (text: string) => createHash("sha256").update(text).digest("base64url").slice(0, 32);

// The accounts read from the store are held, unchanged, until the store changes: each one's key is worked out once.
const keys = new WeakMap<Account, { text: string; key: string }>();

/** The key an account's sessions carry, computed from the account as stored. */
export function accountSessionKey(account: Account): string {
  const text = JSON.stringify(["account", account.name, account.created, account.role, account.password, account.sessionEpoch ?? ""]);
  const known = keys.get(account);
  if (known?.text === text) return known.key;
  const key = digest(text);
  keys.set(account, { text, key });
  return key;
}

type Live = { actor: StudioActor; key: string };

/** Who `id` is in these accounts and the allow-list, with the key its sessions must carry; null when nobody. */
function liveIdentity(data: AccountsFile, id: string): Live | null {
  const colon = id.indexOf(":");
  if (colon < 0) {
    const account = data.accounts.find((a) => a.name === id);
    return account ? { actor: { id: account.name, name: displayNameOf(account), role: account.role, via: "session" }, key: accountSessionKey(account) } : null;
  }
  const provider = id.slice(0, colon);
  const identity = id.slice(colon + 1);
  const entry = config().auth.allow.find((a) => a.provider === provider && a.identity === identity);
  if (!entry) return null;
  const epoch = data.identitySessionEpochs?.[id] ?? "";
  return { actor: { id, name: identity, role: entry.role, via: "session" }, key: digest(JSON.stringify(["identity", id, entry.role, epoch])) };
}

const accounts = () => readAccounts(config().dataDir);

/** The claims a new session of `id` carries, or null when `id` is nobody now. */
export async function sessionClaims(id: string): Promise<SessionClaims | null> {
  const live = liveIdentity(await accounts(), id);
  return live ? { sub: id, sk: live.key } : null;
}

/**
 * The actor behind a session's claims, or null when the session has ended. Cheap enough for every
 * request: the accounts are held in memory (re-read when the file or the mirrored commit changes).
 */
export async function actorOfSession(claims: { sub?: unknown; sk?: unknown }): Promise<StudioActor | null> {
  if (typeof claims.sub !== "string" || typeof claims.sk !== "string") return null;
  const live = liveIdentity(await accounts(), claims.sub);
  return live && live.key === claims.sk ? live.actor : null;
}

/**
 * Sign-out: end every session of the identity behind these claims by drawing it a new epoch, in
 * the accounts store every instance reads. Only a live session can: a replayed cookie of an ended
 * session signs nobody out. Answers whether sessions were ended.
 */
export async function endSessions(claims: { sub?: unknown; sk?: unknown }): Promise<boolean> {
  if (!(await actorOfSession(claims))) return false;
  const id = claims.sub as string;
  return updateAccounts(
    config().dataDir,
    (data) => {
      // Decided again on the accounts being written: they may have changed since the read above.
      if (liveIdentity(data, id)?.key !== claims.sk) return false;
      const account = data.accounts.find((a) => a.name === id);
      if (account) account.sessionEpoch = newSessionEpoch();
      else data.identitySessionEpochs = { ...data.identitySessionEpochs, [id]: newSessionEpoch() };
      return true;
    },
    `End the sessions of ${id}`,
  );
}
