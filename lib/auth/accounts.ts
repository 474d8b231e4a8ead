import { config } from "@/lib/env";
import type { Role } from "@/lib/rules/status-machine";
import { newSessionEpoch, readAccounts, updateAccounts, type Account } from "./account-file";
import { displayNameProblem } from "@/lib/validations/account";
import { hashPassword, passwordProblem } from "./password";

/**
 * Local accounts: adding, listing and removing them. A name is also the account's identity in
 * commits (`<name>@users.field-notes.invalid`), so it is restricted to what an e-mail local part
 * and a URL can carry unchanged.
 */

export const ACCOUNT_NAME = /^[a-z0-9][a-z0-9._-]{0,38}$/;
export const ROLES: readonly Role[] = ["author", "reviewer"];

export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AccountError";
  }
}

export function accountNameProblem(name: string): string | null {
  if (!ACCOUNT_NAME.test(name)) {
    return `"${name}" is not a usable account name: use 1-39 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit`;
  }
  return null;
}

const dataDir = () => config().dataDir;

export async function findAccount(name: string): Promise<Account | null> {
  const { accounts } = await readAccounts(dataDir());
  return accounts.find((a) => a.name === name.toLowerCase()) ?? null;
}

export async function listAccounts(): Promise<Account[]> {
  return (await readAccounts(dataDir())).accounts;
}

export async function addAccount(name: string, role: Role, password: string, displayName?: string): Promise<Account> {
  const problem =
    accountNameProblem(name) ??
    (ROLES.includes(role) ? null : `the role must be author or reviewer, not "${role}"`) ??
    (displayName === undefined ? null : displayNameProblem(displayName)) ??
    passwordProblem(password);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  return updateAccounts(
    dataDir(),
    (data) => {
      if (data.accounts.some((a) => a.name === name)) throw new AccountError(`an account named "${name}" already exists`);
      // A fresh epoch: a session of an earlier account of this name is not one of this account's.
      const account: Account = {
        name,
        ...(displayName === undefined ? {} : { displayName: displayName.trim() }),
        role,
        password: hash,
        created: new Date().toISOString(),
        tokens: [],
        sessionEpoch: newSessionEpoch(),
      };
      data.accounts.push(account);
      return account;
    },
    `Add account ${name} (${role})`,
  );
}

export async function removeAccount(name: string): Promise<void> {
  await updateAccounts(
    dataDir(),
    (data) => {
      const before = data.accounts.length;
      data.accounts = data.accounts.filter((a) => a.name !== name);
      if (data.accounts.length === before) throw new AccountError(`there is no account named "${name}"`);
    },
    `Remove account ${name}`,
  );
}

export async function setPassword(name: string, password: string): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new AccountError(problem);
  const hash = await hashPassword(password);
  await updateAccounts(
    dataDir(),
    (data) => {
      const account = data.accounts.find((a) => a.name === name);
      if (!account) throw new AccountError(`there is no account named "${name}"`);
      account.password = hash;
    },
    `Set the password of ${name}`,
  );
}

export async function setRole(name: string, role: Role): Promise<void> {
  if (!ROLES.includes(role)) throw new AccountError(`the role must be author or reviewer, not "${role}"`);
  await updateAccounts(
    dataDir(),
    (data) => {
      const account = data.accounts.find((a) => a.name === name);
      if (!account) throw new AccountError(`there is no account named "${name}"`);
      if (account.role === role) throw new AccountError(`${name} is already a${role === "author" ? "n" : ""} ${role}`);
      account.role = role;
    },
    `Make ${name} a${role === "author" ? "n" : ""} ${role}`,
  );
}

/** A new display name (not part of the session key: sessions go on, and show it on their next request). */
export async function setDisplayName(name: string, displayName: string): Promise<string> {
  const problem = displayNameProblem(displayName);
  if (problem) throw new AccountError(problem);
  const trimmed = displayName.trim();
  await updateAccounts(
    dataDir(),
    (data) => {
      const account = data.accounts.find((a) => a.name === name);
      if (!account) throw new AccountError(`there is no account named "${name}"`);
      account.displayName = trimmed;
    },
    `Set the display name of ${name}`,
  );
  return trimmed;
}
