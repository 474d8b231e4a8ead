import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Account as OAuthAccount, Profile, Session, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { GET as reviewers } from "@/app/api/studio/reviewers/route";
import { resetConfig } from "@/lib/env";
import { BASE } from "@/lib/testing/studio";
import { signInWithPassword, signOut } from "@/lib/testing/sign-in";
import { requireActor } from "./actor";
import { addAccount, removeAccount, setPassword, setRole } from "./accounts";
import { authOptions } from "./options";
import { issueToken } from "./tokens";

/**
 * Sessions end when the account changes (issue 32, finding 5): sign-out, a new password, a new role
 * and removal each end every session of the account, so a cookie kept from before is refused when
 * replayed. Cookies are issued by next-auth's own handler with the app's options, and checked by a
 * real studio route.
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

beforeEach(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-sessions-"));
  dirs.push(dir);
  for (const key of ["NEXTAUTH_SECRET", "AUTH_SECRET", "GITHUB_ID", "GITHUB_SECRET", "AUTH_ALLOW", "ACCOUNTS_REMOTE", "CONTENT_REMOTE"])
    delete process.env[key];
  Object.assign(process.env, { DATA_DIR: dir, SITE_URL: BASE });
  resetConfig();
});

const PASSWORD = "bob's long password";

/** What a studio route answers to a request carrying this cookie. */
async function statusWith(cookie: string): Promise<number> {
  const response = await reviewers(new Request(`${BASE}/api/studio/reviewers`, { headers: { cookie, host: "studio.test" } }), {
    params: Promise.resolve({}),
  } as never);
  return response.status;
}

/** Who the studio takes the bearer of this cookie for, or null. */
async function actorWith(cookie: string) {
  try {
    const { id, role } = await requireActor(new Request(`${BASE}/api/studio/notes`, { headers: { cookie, host: "studio.test" } }));
    return { id, role };
  } catch {
    return null;
  }
}

describe("a session cookie, replayed after the account changed", () => {
  it("is refused after sign-out, with every other session of the account; a fresh sign-in works", async () => {
    await addAccount("bob", "author", PASSWORD);
    const laptop = await signInWithPassword("bob", PASSWORD);
    const phone = await signInWithPassword("bob", PASSWORD);
    expect(await statusWith(laptop)).toBe(200);
    expect(await statusWith(phone)).toBe(200);

    expect(await signOut(laptop)).toBe(true);
    expect(await statusWith(laptop)).toBe(401);
    expect(await statusWith(phone)).toBe(401);

    const again = await signInWithPassword("bob", PASSWORD);
    expect(await actorWith(again)).toEqual({ id: "bob", role: "author" });
    // A dead cookie's sign-out, replayed, ends nothing: only a live session can sign its account out.
    await signOut(laptop);
    expect(await statusWith(again)).toBe(200);
  });

  it("is refused after a password change", async () => {
    await addAccount("bob", "author", PASSWORD);
    const cookie = await signInWithPassword("bob", PASSWORD);
    expect(await statusWith(cookie)).toBe(200);
    await setPassword("bob", "bob's new long password");
    expect(await statusWith(cookie)).toBe(401);
    expect(await actorWith(await signInWithPassword("bob", "bob's new long password"))).toEqual({ id: "bob", role: "author" });
  });

  it("is refused after a role change, and does not carry the new role", async () => {
    await addAccount("bob", "author", PASSWORD);
    const cookie = await signInWithPassword("bob", PASSWORD);
    expect(await actorWith(cookie)).toEqual({ id: "bob", role: "author" });
    await setRole("bob", "reviewer");
    expect(await actorWith(cookie)).toBeNull();
    expect(await statusWith(cookie)).toBe(401);
    expect(await actorWith(await signInWithPassword("bob", PASSWORD))).toEqual({ id: "bob", role: "reviewer" });
  });

  it("is refused after removal, and stays refused when a new account of the same name is added", async () => {
    await addAccount("bob", "author", PASSWORD);
    const cookie = await signInWithPassword("bob", PASSWORD);
    await removeAccount("bob");
    expect(await statusWith(cookie)).toBe(401);
    // Same name, same password, another role: a new account, which the old cookie is not.
    await addAccount("bob", "reviewer", PASSWORD);
    expect(await actorWith(cookie)).toBeNull();
    expect(await statusWith(cookie)).toBe(401);
    expect(await actorWith(await signInWithPassword("bob", PASSWORD))).toEqual({ id: "bob", role: "reviewer" });
  });

  it("is not refused for what does not concern the session: an API token issued, another account's sign-out", async () => {
    await addAccount("bob", "author", PASSWORD);
    await addAccount("eve", "author", "eve's long password");
    const bob = await signInWithPassword("bob", PASSWORD);
    await issueToken("bob", "ci");
    await signOut(await signInWithPassword("eve", "eve's long password"));
    expect(await statusWith(bob)).toBe(200);
  });
});

describe("an allow-listed (OAuth) identity's session", () => {
  const OAUTH = { GITHUB_ID: "gh-client", GITHUB_SECRET: "gh-secret" };
  const callbacks = () => authOptions().callbacks!;
  const signIn = (login: string) =>
    callbacks().jwt!({
      token: {} as JWT,
      user: { id: "1" } as User,
      account: { provider: "github", type: "oauth", providerAccountId: "1" } as OAuthAccount,
      profile: { login } as Profile,
      trigger: "signIn",
    });
  const actorOf = async (token: JWT) =>
    (
      (await callbacks().session!({
        session: { expires: "2099-01-01T00:00:00.000Z" } as Session,
        token,
        user: undefined as never,
        newSession: undefined,
        trigger: "update",
      })) as Session
    ).actor;

  it("ends with its sign-out, and with a change of its role on the allow-list", async () => {
    Object.assign(process.env, OAUTH, { AUTH_ALLOW: "github:octocat=author" });
    resetConfig();
    const first = await signIn("octocat");
    const second = await signIn("octocat");
    expect(await actorOf(first)).toEqual({ id: "github:octocat", name: "octocat", role: "author" });
    await authOptions().events!.signOut!({ token: first, session: undefined as never });
    expect(await actorOf(first)).toBeUndefined();
    expect(await actorOf(second)).toBeUndefined();

    const third = await signIn("octocat");
    expect(await actorOf(third)).toMatchObject({ role: "author" });
    Object.assign(process.env, { AUTH_ALLOW: "github:octocat=reviewer" });
    resetConfig();
    expect(await actorOf(third)).toBeUndefined();
    expect(await actorOf(await signIn("octocat"))).toMatchObject({ role: "reviewer" });
  });
});
