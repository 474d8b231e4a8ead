/**
 * Local accounts of the studio, kept in DATA_DIR/accounts.json (outside the content repository), or
 * with ACCOUNTS_REMOTE set in that private repository (pushed before the command reports success).
 *
 *   npm run user -- add <name> --role author|reviewer [--name "<display name>"]   password from standard input
 *   npm run user -- name <name> "<display name>"        how commits, bylines and threads show the account
 *   npm run user -- password <name>                     new password from standard input
 *   npm run user -- role <name> author|reviewer
 *   npm run user -- list
 *   npm run user -- remove <name>
 *   npm run user -- token <name> [--label <text>]       prints a new API token, once
 *   npm run user -- revoke <name | token-id>            all of an account's tokens, or one
 */
import { createInterface } from "node:readline";
import { Writable } from "node:stream";
import { displayNameOf } from "@/lib/auth/account-file";
import { AccountError, addAccount, listAccounts, removeAccount, setDisplayName, setPassword, setRole } from "@/lib/auth/accounts";
import { issueToken, revokeTokens } from "@/lib/auth/tokens";
import { config } from "@/lib/env";
import { redactUrl, remoteConfig } from "@/lib/store";
import type { Role } from "@/lib/rules/status-machine";

const USAGE = `usage:
  npm run user -- add <name> --role author|reviewer [--name "<display name>"]   (password on standard input)
  npm run user -- name <name> "<display name>"
  npm run user -- password <name>                     (new password on standard input)
  npm run user -- role <name> author|reviewer
  npm run user -- list
  npm run user -- remove <name>
  npm run user -- token <name> [--label <text>]
  npm run user -- revoke <name | token-id>`;

class UsageError extends Error {}

/** Where the accounts are: the accounts repository (ACCOUNTS_REMOTE) or the data folder's file. */
function accountsHome(): string {
  const remote = remoteConfig().accounts;
  return remote ? `the accounts repository ${redactUrl(remote.url)}` : `${config().dataDir}/accounts.json`;
}

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const value = args[i + 1];
  if (value === undefined || value.startsWith("--")) throw new UsageError(`${name} needs a value`);
  args.splice(i, 2);
  return value;
}

function positional(args: string[], what: string): string {
  const value = args.shift();
  if (!value || value.startsWith("--")) throw new UsageError(`missing ${what}`);
  return value;
}

function done(args: string[]) {
  if (args.length) throw new UsageError(`unexpected argument "${args[0]}"`);
}

/** The password: typed without echo at a terminal, or read whole from a pipe (one trailing newline dropped). */
async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString("utf8")
      .replace(/\r?\n$/, "");
  }
  const ask = (q: string) =>
    new Promise<string>((resolve) => {
      let muted = false;
      const output = new Writable({ write: (chunk, _enc, cb) => (muted ? cb() : process.stderr.write(chunk, cb)) });
      const rl = createInterface({ input: process.stdin, output, terminal: true });
      rl.question(q, (answer) => {
        rl.close();
        process.stderr.write("\n");
        resolve(answer);
      });
      muted = true;
    });
  const first = await ask(prompt);
  if ((await ask("Again: ")) !== first) throw new AccountError("the two passwords differ");
  return first;
}

async function main(argv: string[]): Promise<void> {
  const args = [...argv];
  const command = args.shift();
  switch (command) {
    case "add": {
      const role = option(args, "--role");
      const displayName = option(args, "--name");
      const name = positional(args, "account name");
      done(args);
      if (role !== "author" && role !== "reviewer") throw new UsageError("--role must be author or reviewer");
      const account = await addAccount(name, role as Role, await readPassword(`Password for ${name}: `), displayName);
      const shown = account.displayName ? ` as "${account.displayName}"` : "";
      console.log(`added ${account.name} (${account.role})${shown} to ${accountsHome()}`);
      return;
    }
    case "name": {
      const name = positional(args, "account name");
      const displayName = args.shift();
      if (displayName === undefined) throw new UsageError("missing display name");
      done(args);
      const set = await setDisplayName(name, displayName);
      console.log(`${name} is now shown as "${set}"`);
      return;
    }
    case "password": {
      const name = positional(args, "account name");
      done(args);
      await setPassword(name, await readPassword(`New password for ${name}: `));
      console.log(`changed the password of ${name}; its sessions have ended`);
      return;
    }
    case "role": {
      const name = positional(args, "account name");
      const role = positional(args, "role (author or reviewer)");
      done(args);
      if (role !== "author" && role !== "reviewer") throw new UsageError("the role must be author or reviewer");
      await setRole(name, role);
      console.log(`${name} is now a${role === "author" ? "n" : ""} ${role}; its sessions have ended`);
      return;
    }
    case "list": {
      done(args);
      const accounts = await listAccounts();
      if (accounts.length === 0) console.log(`no accounts in ${accountsHome()}`);
      for (const a of accounts) {
        console.log(`${a.name}\t${a.role}\tadded ${a.created}${a.displayName ? `\t${displayNameOf(a)}` : ""}`);
        for (const t of a.tokens) {
          const state = t.revoked ? `revoked ${t.revoked}` : "live";
          console.log(`  token ${t.id}\t${state}\tissued ${t.created}${t.label ? `\t${t.label}` : ""}`);
        }
      }
      return;
    }
    case "remove": {
      const name = positional(args, "account name");
      done(args);
      await removeAccount(name);
      console.log(`removed ${name}; its sessions and tokens no longer work`);
      return;
    }
    case "token": {
      const label = option(args, "--label");
      const name = positional(args, "account name");
      done(args);
      const { id, token } = await issueToken(name, label);
      console.error(`new API token ${id} for ${name}; it is shown only now (revoke with: npm run user -- revoke ${id})`);
      console.log(token);
      return;
    }
    case "revoke": {
      const target = positional(args, "account name or token id");
      done(args);
      const ids = await revokeTokens(target);
      console.log(`revoked ${ids.length} token${ids.length === 1 ? "" : "s"}: ${ids.join(", ")}`);
      return;
    }
    default:
      throw new UsageError(command ? `unknown command "${command}"` : "missing command");
  }
}

main(process.argv.slice(2)).catch((e: unknown) => {
  if (e instanceof UsageError) {
    console.error(`${e.message}\n${USAGE}`);
    process.exit(2);
  }
  console.error(e instanceof AccountError ? e.message : e instanceof Error ? e.message : String(e));
  process.exit(1);
});
