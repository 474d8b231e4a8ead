import "server-only";
import { findAccount } from "./accounts";
import { addressBucket } from "@/lib/web/client-address";
import { decoyHash, verifyPassword } from "./password";
import { accountSessionKey } from "./sessions";
import { FailureBackoff, type Backoff } from "./rate-limit";

/**
 * Password sign-in, slowed down twice: per account (guessing one person's password, from anywhere)
 * and per address (guessing from one place, at any accounts). Only failures count, so a person who
 * signs in often is never slowed by their own successes; a refused attempt is not a failure, so
 * trying again too early does not push the wait further out.
 *
 * The account's wait is capped low (a minute) and the address's high (15 minutes): whoever attacks
 * an account from one address is slowed far more by their own address than the account is, so the
 * account is free again a minute after their latest failure, and its owner, from an address with no
 * failures, signs in within that minute. Holding the account shut takes a fresh address for every
 * minute. The address is the socket's (lib/web/client-address.ts), never a header the client wrote.
 */

export const ACCOUNT_BACKOFF: Backoff = { free: 5, baseMs: 15_000, maxMs: 60_000, forgetMs: 15 * 60_000 };
export const ADDRESS_BACKOFF: Backoff = { free: 10, baseMs: 15_000, maxMs: 15 * 60_000, forgetMs: 60 * 60_000 };

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInError";
  }
}

export const WRONG_CREDENTIALS = "wrong account name or password";

export type SignInOptions = { now?: () => number; log?: (line: string) => void };

export function createPasswordSignIn({ now = Date.now, log = console.warn }: SignInOptions = {}) {
  const byAccount = new FailureBackoff(ACCOUNT_BACKOFF, now);
  const byAddress = new FailureBackoff(ADDRESS_BACKOFF, now);

  return async function signIn(input: { name: string; password: string; address: string }): Promise<{ name: string; sessionKey: string }> {
    const name = input.name.trim().toLowerCase();
    const accountKey = `account:${name}`;
    const addressKey = `address:${addressBucket(input.address)}`;
    const wait = Math.max(byAccount.retryAfter(accountKey), byAddress.retryAfter(addressKey));
    if (wait > 0) {
      // Quoted as JSON: the name is whatever the client typed, and must not forge log lines.
      log(
        `sign-in refused: account ${JSON.stringify(name.slice(0, 100))} from ${input.address}, ${byAccount.failures(accountKey)} failures on the account, ` +
          `${byAddress.failures(addressKey)} from the address; may try again in ${Math.ceil(wait / 1000)} s`,
      );
      throw new SignInError(`too many failed sign-ins; try again in ${inWords(wait)}`);
    }
    const account = name ? await findAccount(name) : null;
    // An unknown name costs as much time as a wrong password, so timing does not reveal accounts.
    const ok = await verifyPassword(input.password, account?.password ?? (await decoyHash()));
    if (!account || !ok) {
      byAccount.fail(accountKey);
      byAddress.fail(addressKey);
      throw new SignInError(WRONG_CREDENTIALS);
    }
    byAccount.clear(accountKey);
    // The session is bound to the account exactly as its password was checked (lib/auth/sessions.ts).
    return { name: account.name, sessionKey: accountSessionKey(account) };
  };
}

function inWords(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  if (seconds < 120) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  return `${Math.ceil(seconds / 60)} minutes`;
}
