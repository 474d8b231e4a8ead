import { findAccount } from "./accounts";
import { decoyHash, verifyPassword } from "./password";
import { FailureCounter, type Limit } from "./rate-limit";

/**
 * Password sign-in, rate-limited twice: per account (guessing one person's password) and per
 * address (trying many accounts from one place). Only failures count, so a person who signs in
 * often is never locked out by their own successes.
 */

export const ACCOUNT_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };
export const ADDRESS_LIMIT: Limit = { max: 20, windowMs: 15 * 60_000 };

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SignInError";
  }
}

export const WRONG_CREDENTIALS = "wrong account name or password";

export function createPasswordSignIn(now: () => number = Date.now) {
  const byAccount = new FailureCounter(ACCOUNT_LIMIT, now);
  const byAddress = new FailureCounter(ADDRESS_LIMIT, now);

  return async function signIn(input: { name: string; password: string; address: string }): Promise<{ name: string }> {
    const name = input.name.trim().toLowerCase();
    const accountKey = `account:${name}`;
    const addressKey = `address:${input.address}`;
    const wait = Math.max(byAccount.retryAfter(accountKey), byAddress.retryAfter(addressKey));
    if (wait > 0) {
      throw new SignInError(`too many failed sign-ins; try again in ${Math.ceil(wait / 60_000)} minute${wait > 60_000 ? "s" : ""}`);
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
    return { name: account.name };
  };
}

/** The client's address as the server saw it: the nearest hop of X-Forwarded-For (Next sets it from the socket). */
export function clientAddress(headers: Record<string, string | string[] | undefined>): string {
  const raw = headers["x-forwarded-for"];
  const value = Array.isArray(raw) ? raw.join(",") : (raw ?? "");
  const hops = value.split(",").map((s) => s.trim()).filter(Boolean);
  return hops[hops.length - 1] ?? "unknown";
}
