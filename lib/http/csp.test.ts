import { describe, expect, it } from "vitest";
import { API_POLICY, baseHeaders, commitNonce, isPrivatePath, pagePolicy, randomNonce } from "./csp";

const COMMIT_A = "a".repeat(40);
const COMMIT_B = "b".repeat(40);

describe("CSP nonces", () => {
  it("are the same for one commit and origin, and differ with the commit, the origin or the key", () => {
    const nonce = commitNonce("server key", COMMIT_A, "https://notes.example.org");
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 bits, base64url
    expect(commitNonce("server key", COMMIT_A, "https://notes.example.org")).toBe(nonce);
    expect(commitNonce("server key", COMMIT_B, "https://notes.example.org")).not.toBe(nonce);
    expect(commitNonce("server key", COMMIT_A, "http://evil.example")).not.toBe(nonce);
    expect(commitNonce("another key", COMMIT_A, "https://notes.example.org")).not.toBe(nonce);
  });

  it("are fresh for every private page", () => {
    const nonces = new Set(Array.from({ length: 100 }, randomNonce));
    expect(nonces.size).toBe(100);
    expect([...nonces].every((n) => /^[A-Za-z0-9_-]{22}$/.test(n))).toBe(true);
  });
});

describe("the policies", () => {
  it("allow page scripts only by nonce, never inline or eval, and no framing", () => {
    const policy = pagePolicy("N0nce");
    const script = policy.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(script).toBe("script-src 'self' 'nonce-N0nce' 'strict-dynamic'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("base-uri 'none'");
    expect(pagePolicy("N0nce", { dev: true })).toContain("'unsafe-eval'");
    expect(pagePolicy("N0nce", { https: true })).toContain("upgrade-insecure-requests");
    expect(API_POLICY).toContain("default-src 'none'");
    expect(API_POLICY).toContain("frame-ancestors 'none'");
  });

  it("send HSTS only when the site is https", () => {
    expect(baseHeaders("https://notes.example.org")["Strict-Transport-Security"]).toBe("max-age=31536000");
    expect(baseHeaders("http://127.0.0.1:3000")["Strict-Transport-Security"]).toBeUndefined();
    expect(baseHeaders(null)).toEqual({ "X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin", "X-Frame-Options": "DENY" });
  });

  it("treat the studio, sign-in and next-auth as private", () => {
    expect(["/studio", "/studio/notes/AFN-001", "/sign-in", "/api/auth/session"].every(isPrivatePath)).toBe(true);
    expect(["/", "/notes/AFN-001", "/search", "/studios", "/sign-in-help"].some(isPrivatePath)).toBe(false);
  });
});
