import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./env";

const error = (env: Record<string, string>) => {
  try {
    parseConfig(env, "/srv/app");
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  throw new Error("expected a configuration error");
};

describe("sign-in configuration", () => {
  it("needs nothing: local accounts, a generated secret, no OAuth", () => {
    const { auth } = parseConfig({}, "/srv/app");
    expect(auth).toEqual({ secret: null, url: null, github: null, oidc: null, allow: [] });
  });

  it("turns GitHub and OIDC on with their variables and maps allow-listed identities to roles", () => {
    const { auth } = parseConfig(
      {
        SITE_URL: "https://notes.example.org/",
        GITHUB_ID: "gh-id",
        GITHUB_SECRET: "gh-secret",
        OIDC_ISSUER: "https://id.example.org/",
        OIDC_CLIENT_ID: "oidc-id",
        OIDC_CLIENT_SECRET: "oidc-secret",
        AUTH_ALLOW: "github:OctoCat=author, oidc:alice@example.org=reviewer",
      },
      "/srv/app",
    );
    expect(auth.url).toBe("https://notes.example.org");
    expect(auth.github).toEqual({ clientId: "gh-id", clientSecret: "gh-secret" });
    expect(auth.oidc).toEqual({ issuer: "https://id.example.org", clientId: "oidc-id", clientSecret: "oidc-secret", name: "OpenID Connect" });
    expect(auth.allow).toEqual([
      { provider: "github", identity: "octocat", role: "author" },
      { provider: "oidc", identity: "alice@example.org", role: "reviewer" },
    ]);
  });

  it("names each bad variable, and never prints a secret's value", () => {
    const message = error({
      NEXTAUTH_SECRET: "too-short-secret",
      GITHUB_ID: "only-the-id",
      AUTH_ALLOW: "github:octocat=admin,oidc:bob=author",
    });
    expect(message).toMatch(/NEXTAUTH_SECRET: must be at least 32 characters.*\(got a hidden value\)/);
    expect(message).not.toContain("too-short-secret");
    expect(message).toMatch(/GITHUB_SECRET: must be set together with GITHUB_ID/);
    expect(message).toMatch(/AUTH_ALLOW: entry 1 "github:octocat=admin" must look like provider:identity=role/);
    expect(message).toMatch(/AUTH_ALLOW: lists oidc identities but OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are not set/);
  });

  it("refuses an OAuth provider that nobody on the allow-list could use", () => {
    expect(error({ GITHUB_ID: "a", GITHUB_SECRET: "b" })).toMatch(/AUTH_ALLOW: names no github identity/);
  });
});
