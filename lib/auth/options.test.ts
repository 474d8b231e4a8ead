import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Account, Profile, Session, User } from "next-auth";
import type { JWT } from "next-auth/jwt";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { authOptions, oauthButtons } from "./options";
import { sessionSecret, SECRET_FILE } from "./secret";

/** Sign-in configuration as next-auth receives it: providers by environment, the allow-list, the secret. */

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const OAUTH = {
  GITHUB_ID: "gh-client",
  GITHUB_SECRET: "gh-secret",
  OIDC_ISSUER: "https://id.example.org",
  OIDC_CLIENT_ID: "oidc-client",
  OIDC_CLIENT_SECRET: "oidc-secret",
  AUTH_ALLOW: "github:octocat=author,github:reviewer1=reviewer,oidc:alice@example.org=author,oidc:subject-42=reviewer",
};

function environment(vars: Record<string, string | undefined>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-auth-"));
  dirs.push(dir);
  for (const key of [...Object.keys(OAUTH), "NEXTAUTH_SECRET", "AUTH_SECRET"]) delete process.env[key];
  Object.assign(process.env, { DATA_DIR: dir, SITE_URL: "http://studio.test" }, vars);
  resetConfig();
  return dir;
}

const account = (provider: string) => ({ provider, type: "oauth", providerAccountId: "1" }) as Account;
const callbacks = () => authOptions().callbacks!;

async function sessionFor(provider: string, profile: Record<string, unknown>): Promise<Session> {
  const token = await callbacks().jwt!({
    token: {} as JWT,
    user: { id: "1" } as User,
    account: account(provider),
    profile: profile as Profile,
    trigger: "signIn",
  });
  return (await callbacks().session!({
    session: { expires: "2099-01-01T00:00:00.000Z" } as Session,
    token,
    user: undefined as never,
    newSession: undefined,
    trigger: "update",
  })) as Session;
}

describe("sign-in providers", () => {
  it("offer only local accounts when no OAuth variable is set", () => {
    environment({});
    expect(authOptions().providers.map((p) => p.id)).toEqual(["credentials"]);
    expect(oauthButtons()).toEqual([]);
  });

  it("turn GitHub and OIDC on by environment, with buttons named for them", () => {
    environment({ ...OAUTH, OIDC_NAME: "Example ID" });
    expect(authOptions().providers.map((p) => p.id)).toEqual(["credentials", "github", "oidc"]);
    expect(oauthButtons()).toEqual([
      { id: "github", name: "GitHub" },
      { id: "oidc", name: "Example ID" },
    ]);
  });

  it("let in only allow-listed identities, each with the role the list gives it", async () => {
    environment(OAUTH);
    const signIn = callbacks().signIn!;
    expect(await signIn({ user: {} as User, account: account("github"), profile: { login: "OctoCat" } as Profile })).toBe(true);
    expect(await signIn({ user: {} as User, account: account("github"), profile: { login: "mallory" } as Profile })).toBe("/sign-in?error=NotAllowed");
    expect((await sessionFor("github", { login: "octocat" })).actor).toEqual({ id: "github:octocat", name: "octocat", role: "author" });
    expect((await sessionFor("github", { login: "reviewer1" })).actor).toEqual({ id: "github:reviewer1", name: "reviewer1", role: "reviewer" });
    expect((await sessionFor("oidc", { email: "Alice@Example.org", sub: "x" })).actor?.role).toBe("author");
  });

  it("trust an issuer's e-mail only when it is verified, and fall back to the subject", async () => {
    environment(OAUTH);
    expect((await sessionFor("oidc", { email: "alice@example.org", email_verified: false, sub: "nobody" })).actor).toBeUndefined();
    expect((await sessionFor("oidc", { email: "alice@example.org", email_verified: false, sub: "subject-42" })).actor).toEqual({
      id: "oidc:subject-42",
      name: "subject-42",
      role: "reviewer",
    });
  });

  it("drop a session whose identity left the allow-list, on its next request", async () => {
    environment(OAUTH);
    const token = await callbacks().jwt!({
      token: {} as JWT,
      user: { id: "1" } as User,
      account: account("github"),
      profile: { login: "octocat" } as Profile,
      trigger: "signIn",
    });
    environment({ ...OAUTH, AUTH_ALLOW: "github:reviewer1=reviewer,oidc:alice@example.org=author" });
    const session = (await callbacks().session!({
      session: { expires: "2099-01-01T00:00:00.000Z" } as Session,
      token,
      user: undefined as never,
      newSession: undefined,
      trigger: "update",
    })) as Session;
    expect(session.actor).toBeUndefined();
  });
});

describe("the session secret", () => {
  it("is generated into DATA_DIR once, private to its owner, and reused", () => {
    const dir = environment({});
    const first = sessionSecret();
    expect(first.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dir, SECRET_FILE);
    expect(fs.readFileSync(file, "utf8").trim()).toBe(first);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(sessionSecret()).toBe(first);
  });

  it("is the configured one when NEXTAUTH_SECRET is set, and nothing is written", () => {
    const dir = environment({ NEXTAUTH_SECRET: "s".repeat(40) });
    expect(sessionSecret()).toBe("s".repeat(40));
    expect(fs.existsSync(path.join(dir, SECRET_FILE))).toBe(false);
  });
});
