import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { resetConfig } from "@/lib/env";
import { resetRemoteConfig } from "@/lib/store";
import { fsck, git, tempDir } from "@/lib/store/testing";
import { BASE } from "@/lib/testing/studio";
import { signInWithPassword, signOut } from "@/lib/testing/sign-in";
import { getAccountsStore } from "./account-file";
import { addAccount, findAccount, setPassword } from "./accounts";
import { requireActor } from "./actor";
import { accountOfToken, issueToken, revokeTokens } from "./tokens";

/**
 * ACCOUNTS_REMOTE: accounts, roles and token hashes in a private git repository of their own,
 * written by compare-and-swap and push, and seen by another instance (another DATA_DIR) after its
 * next sync. Served by git's own http-backend.
 */

let server: GitServer;
let root: string;
const saved = { ...process.env };

/** Act as the instance whose data folder is `dir`. */
function as(dir: string) {
  process.env.DATA_DIR = path.join(root, dir);
  resetConfig();
}

beforeAll(async () => {
  root = tempDir("accounts-remote");
  fs.mkdirSync(path.join(root, "repos"));
  git(root, "init", "--bare", "-q", "-b", "main", path.join(root, "repos", "accounts.git"));
  server = await startGitServer({ root: path.join(root, "repos"), user: "fn", password: "accounts-remote-password" });
  process.env.ACCOUNTS_REMOTE = `${server.origin}/accounts.git`;
  process.env.ACCOUNTS_REMOTE_USER = "fn";
  process.env.ACCOUNTS_REMOTE_TOKEN = "accounts-remote-password";
  process.env.CONTENT_POLL_SECONDS = "3600";
  // One site: one session secret and one address for every instance.
  process.env.NEXTAUTH_SECRET = "one session secret shared by every instance";
  process.env.SITE_URL = BASE;
  delete process.env.CONTENT_REMOTE;
  resetRemoteConfig();
}, 30_000);

afterAll(async () => {
  process.env = saved;
  resetConfig();
  resetRemoteConfig();
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

describe("accounts in a repository of their own", () => {
  it("an account and token written by one instance are known to another; a revocation reaches it on its next sync", async () => {
    as("a");
    await addAccount("ada", "author", "ada's long password");
    const { id, token } = await issueToken("ada", "ci");
    // Nothing under the data folder's embedded file: the accounts are on the remote.
    expect(fs.existsSync(path.join(root, "a", "accounts.json"))).toBe(false);
    const onRemote = git(path.join(root, "repos", "accounts.git"), "show", "main:accounts.json");
    expect(onRemote).toContain('"ada"');
    expect(onRemote).not.toContain(token);

    as("b");
    expect((await findAccount("ada"))?.role).toBe("author");
    expect((await accountOfToken(token))?.account.name).toBe("ada");

    as("a");
    expect(await revokeTokens(id)).toEqual([id]);
    expect(await accountOfToken(token)).toBeNull();

    as("b");
    await (await getAccountsStore(path.join(root, "b"))).remote!.sync();
    expect(await accountOfToken(token)).toBeNull();
    expect(fsck(path.join(root, "repos", "accounts.git"))).toBe("");
  });

  it("concurrent changes through one instance all land (compare-and-swap, re-applied on the new accounts) and reach the other", async () => {
    as("a");
    const storeA = await getAccountsStore(path.join(root, "a"));
    const names = Array.from({ length: 6 }, (_, i) => `writer-${i}`);
    // Six writers at once: each lost race is re-applied on the accounts the winner wrote.
    await Promise.all(names.map((n) => addAccount(n, "reviewer", `${n}'s long password`)));
    await storeA.remote!.sync();
    as("b");
    await (await getAccountsStore(path.join(root, "b"))).remote!.sync();
    for (const n of names) expect(await findAccount(n)).not.toBeNull();
  });

  it("a session ended through one instance (sign-out, new password) is refused by the other after its next sync", async () => {
    const syncB = async () => (await getAccountsStore(path.join(root, "b"))).remote!.sync();
    const actorOn = async (dir: string, cookie: string) => {
      as(dir);
      return requireActor(new Request(`${BASE}/api/studio/notes`, { headers: { cookie } })).then(
        (actor) => actor.id,
        () => null,
      );
    };
    as("a");
    await addAccount("sol", "author", "sol's long password");
    const fromA = await signInWithPassword("sol", "sol's long password");
    await syncB();
    expect(await actorOn("b", fromA)).toBe("sol");

    as("a");
    expect(await signOut(fromA)).toBe(true);
    expect(await actorOn("a", fromA)).toBeNull();
    await syncB();
    expect(await actorOn("b", fromA)).toBeNull();

    as("b");
    const fromB = await signInWithPassword("sol", "sol's long password");
    expect(await actorOn("a", fromB)).toBe("sol");
    as("a");
    await setPassword("sol", "sol's new long password");
    await syncB();
    expect(await actorOn("b", fromB)).toBeNull();
    expect(await actorOn("a", fromB)).toBeNull();
  });
});
