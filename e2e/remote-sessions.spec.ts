import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { startGitServer, type GitServer } from "./support/git-server";
import { startInstance, userCli, type Instance, sharedRemoteEnv } from "./support/remote-instances";

/**
 * Sessions end on every instance (issue 32, finding 5): two `next start` instances of this build on
 * one accounts remote (git's own http-backend), a person signed in through the real form, and a copy
 * of their session cookie replayed after sign-out, a new password, a new role, and removal followed
 * by a new account of the same name. The copy must be refused by both instances, each within a few
 * polls of the accounts remote. The CLI writes through a data folder of its own, so neither
 * instance hears of its changes but by polling.
 */

// Each test is on its own account and stands alone; in order, in one worker (one pair of instances).
test.describe.configure({ mode: "default", timeout: 120_000 });

const GIT_USER = "field-notes";
const GIT_PASSWORD = "remote-sessions-e2e-password-1234";
const POLL_SECONDS = 2;
// Generous: a poll is three requests to the git host, each a git process, on a loaded machine.
const REFUSED_WITHIN_MS = 20_000;
const GIT_ENV = { GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
const SESSION_COOKIE = "next-auth.session-token";
const PASSWORD = "a long enough password";

let root: string;
let server: GitServer;
let a: Instance;
let b: Instance;
let cli: { env: Record<string, string> };

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV }, stdio: ["ignore", "pipe", "pipe"] }).trim();

test.beforeAll(async () => {
  test.setTimeout(240_000);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-remote-sessions-e2e-"));
  fs.mkdirSync(path.join(root, "repos"));
  for (const name of ["content", "accounts"]) git(root, "init", "-q", "--bare", "-b", "main", path.join(root, "repos", `${name}.git`));
  server = await startGitServer({ root: path.join(root, "repos"), user: GIT_USER, password: GIT_PASSWORD });
  const shared = sharedRemoteEnv(server.origin, { user: GIT_USER, password: GIT_PASSWORD }, POLL_SECONDS);
  cli = { env: { ...shared, DATA_DIR: path.join(root, "cli") } };
  for (const name of ["sally", "pat", "rory", "bob"]) await userCli(cli, ["add", name, "--role", "author"], `${PASSWORD}\n`);
  [a, b] = await Promise.all([startInstance("instance-a", path.join(root, "a"), shared), startInstance("instance-b", path.join(root, "b"), shared)]);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await server?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

/** Sign in through the sign-in form of `instance`; answers a copy of the session cookie, as a thief would keep it. */
async function signIn(page: Page, instance: Instance, name: string, password = PASSWORD): Promise<string> {
  await page.goto(`${instance.url}/sign-in?callbackUrl=%2Fstudio`);
  await page.getByLabel("Account").fill(name);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // Whichever comes first: the studio, or the form's refusal (then the other wait is dropped).
  const settle = <T>(p: Promise<T>) =>
    p.then(
      () => undefined,
      () => undefined,
    );
  await Promise.race([
    settle(page.waitForURL((url) => url.pathname === "/studio")),
    settle(page.getByRole("alert").filter({ hasText: "Not signed in" }).waitFor()),
  ]);
  const cookie = (await page.context().cookies(instance.url)).find((c) => c.name === SESSION_COOKIE);
  if (new URL(page.url()).pathname !== "/studio" || !cookie) throw new Error(`${instance.name} refused to sign ${name} in (${page.url()})`);
  return `${SESSION_COOKIE}=${cookie.value}`;
}

/** What `instance` answers a studio API request carrying this cookie (200 signed in, 401 not). */
const statusOn = async (instance: Instance, cookie: string) =>
  (await fetch(`${instance.url}/api/studio/notes`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) })).status;

const roleOn = async (instance: Instance, cookie: string) => {
  const r = await fetch(`${instance.url}/api/auth/session`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
  return ((await r.json()) as { actor?: { role: string } }).actor?.role ?? null;
};

/** Milliseconds from now until each instance refuses the cookie, or null where it never did within the limit. */
async function refusedAfter(cookie: string): Promise<{ a: number | null; b: number | null }> {
  const started = Date.now();
  const when: { a: number | null; b: number | null } = { a: null, b: null };
  while (Date.now() - started < REFUSED_WITHIN_MS && (when.a === null || when.b === null)) {
    const [onA, onB] = await Promise.all([statusOn(a, cookie), statusOn(b, cookie)]);
    if (when.a === null && onA === 401) when.a = Date.now() - started;
    if (when.b === null && onB === 401) when.b = Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  test.info().annotations.push({ type: "refused after (ms)", description: `instance A ${when.a}, instance B ${when.b}` });
  return when;
}

const onBoth = async (cookie: string) => [await statusOn(a, cookie), await statusOn(b, cookie)];

test("sign-out on one instance ends the session: its cookie, replayed, is refused by both", async ({ page, browser }) => {
  const cookie = await signIn(page, a, "sally");
  const elsewhere = await browser.newPage();
  const other = await signIn(elsewhere, b, "sally");
  await elsewhere.close();
  expect(await onBoth(cookie)).toEqual([200, 200]);
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  const refused = await refusedAfter(cookie);
  expect(refused.a, "instance A refuses the signed-out cookie").not.toBeNull();
  expect(refused.b, "instance B refuses the signed-out cookie").not.toBeNull();
  // Sign-out ends every session of the account, the one on the other instance too.
  expect(await onBoth(other)).toEqual([401, 401]);
});

test("a password changed with the CLI ends the session on both instances", async ({ page }) => {
  const cookie = await signIn(page, b, "pat");
  expect(await onBoth(cookie)).toEqual([200, 200]);
  await userCli(cli, ["password", "pat"], "pat's new long password\n");
  const refused = await refusedAfter(cookie);
  expect(refused.a, "instance A refuses the cookie from before the new password").not.toBeNull();
  expect(refused.b, "instance B refuses the cookie from before the new password").not.toBeNull();
});

test("a role changed with the CLI ends the session on both instances, and the old cookie never carries the new role", async ({ page }) => {
  const cookie = await signIn(page, a, "rory");
  expect(await roleOn(b, cookie)).toBe("author");
  await userCli(cli, ["role", "rory", "reviewer"]);
  const refused = await refusedAfter(cookie);
  expect(refused.a, "instance A refuses the cookie from before the new role").not.toBeNull();
  expect(refused.b, "instance B refuses the cookie from before the new role").not.toBeNull();
  expect([await roleOn(a, cookie), await roleOn(b, cookie)]).toEqual([null, null]);
});

test("removing an account and adding a new one of the same name does not revive the old session on either instance", async ({ page, browser }) => {
  const cookie = await signIn(page, a, "bob");
  expect(await onBoth(cookie)).toEqual([200, 200]);
  await userCli(cli, ["remove", "bob"]);
  await userCli(cli, ["add", "bob", "--role", "reviewer"], `${PASSWORD}\n`);
  // Wait until both instances know the new bob: first the old cookie refused on both (which costs
  // no sign-in), then a fresh sign-in on each works, as a reviewer. Each sign-in that fails counts
  // against the account (5 free, then 15 s: lib/auth/sign-in.ts), so they are tried a poll apart.
  await expect.poll(() => onBoth(cookie), { timeout: REFUSED_WITHIN_MS }).toEqual([401, 401]);
  for (const instance of [a, b]) {
    await expect
      .poll(
        async () => {
          const fresh = await browser.newPage();
          try {
            return await roleOn(instance, await signIn(fresh, instance, "bob"));
          } catch {
            return null;
          } finally {
            await fresh.close();
          }
        },
        { timeout: REFUSED_WITHIN_MS, intervals: [POLL_SECONDS * 1000 + 500] },
      )
      .toBe("reviewer");
  }
  expect(await onBoth(cookie)).toEqual([401, 401]);
  expect([await roleOn(a, cookie), await roleOn(b, cookie)]).toEqual([null, null]);
});
