import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/env";

/** WEBHOOK_URLS, WEBHOOK_SECRET and WEBHOOK_TIMEOUT_SECONDS, checked at start with the rest of lib/env.ts. */

const problems = (env: Record<string, string>) => {
  try {
    parseConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.message;
    throw e;
  }
  return null;
};

describe("webhook configuration", () => {
  it("is off unless set, with a 10 s timeout", () => {
    expect(parseConfig({}).webhooks).toEqual({ urls: [], secret: null, timeoutMs: 10_000 });
  });

  it("takes a comma- or space-separated list of http(s) URLs with a secret", () => {
    const c = parseConfig({
      WEBHOOK_URLS: "https://chat.example.org/hooks/a, http://127.0.0.1:9000/ci",
      WEBHOOK_SECRET: "0123456789abcdef",
      WEBHOOK_TIMEOUT_SECONDS: "3",
    });
    expect(c.webhooks).toEqual({ urls: ["https://chat.example.org/hooks/a", "http://127.0.0.1:9000/ci"], secret: "0123456789abcdef", timeoutMs: 3000 });
  });

  it("names the variable and what is wrong with it, never echoing the secret", () => {
    expect(problems({ WEBHOOK_URLS: "chat.example.org/hook", WEBHOOK_SECRET: "0123456789abcdef" })).toMatch(
      /WEBHOOK_URLS: must be a comma-separated list of http\(s\) URLs: "chat.example.org\/hook" is not an absolute URL/,
    );
    expect(problems({ WEBHOOK_URLS: "ftp://example.org/x", WEBHOOK_SECRET: "0123456789abcdef" })).toMatch(/"ftp:\/\/example.org\/x" is not an http\(s\) URL/);
    expect(problems({ WEBHOOK_URLS: "https://example.org/hook" })).toMatch(/WEBHOOK_SECRET: must be set with WEBHOOK_URLS/);
    const short = problems({ WEBHOOK_URLS: "https://example.org/hook", WEBHOOK_SECRET: "hunter2" });
    expect(short).toMatch(/WEBHOOK_SECRET: must be at least 16 characters \(for example: openssl rand -hex 32\) \(got a hidden value\)/);
    expect(short).not.toContain("hunter2");
    expect(problems({ WEBHOOK_TIMEOUT_SECONDS: "600" })).toMatch(/WEBHOOK_TIMEOUT_SECONDS: must be from 1 to 120 seconds \(got "600"\)/);
  });
});
