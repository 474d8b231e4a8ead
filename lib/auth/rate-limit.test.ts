import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { addAccount } from "./accounts";
import { FailureCounter } from "./rate-limit";
import { ACCOUNT_LIMIT, ADDRESS_LIMIT, clientAddress, createPasswordSignIn, WRONG_CREDENTIALS } from "./sign-in";

describe("failure counter", () => {
  it("blocks after max failures in the window and frees the key when the oldest failure ages out", () => {
    let now = 0;
    const counter = new FailureCounter({ max: 3, windowMs: 1000 }, () => now);
    for (const t of [0, 100, 200]) {
      now = t;
      expect(counter.retryAfter("k")).toBe(0);
      counter.fail("k");
    }
    expect(counter.retryAfter("k")).toBe(800);
    expect(counter.retryAfter("other")).toBe(0);
    now = 1001;
    expect(counter.retryAfter("k")).toBe(0);
  });
});

describe("password sign-in", () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fn-signin-"));
    process.env.DATA_DIR = dir;
    resetConfig();
    await addAccount("alice", "author", "alice's long password");
    await addAccount("bob", "reviewer", "bob's long password");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("signs in with the right password and says the same thing for a wrong password and an unknown account", async () => {
    const signIn = createPasswordSignIn();
    expect(await signIn({ name: "Alice", password: "alice's long password", address: "10.0.0.1" })).toEqual({ name: "alice" });
    await expect(signIn({ name: "alice", password: "nope nope nope", address: "10.0.0.1" })).rejects.toThrow(WRONG_CREDENTIALS);
    await expect(signIn({ name: "mallory", password: "nope nope nope", address: "10.0.0.1" })).rejects.toThrow(WRONG_CREDENTIALS);
  });

  it("locks an account after repeated failures, even with the right password, from any address", async () => {
    const signIn = createPasswordSignIn();
    for (let i = 0; i < ACCOUNT_LIMIT.max; i++) {
      await expect(signIn({ name: "alice", password: "wrong guess " + i, address: `10.1.0.${i}` })).rejects.toThrow(WRONG_CREDENTIALS);
    }
    await expect(signIn({ name: "alice", password: "alice's long password", address: "10.9.9.9" })).rejects.toThrow(/too many failed sign-ins; try again in 15 minutes/);
    // Another account is not affected.
    expect(await signIn({ name: "bob", password: "bob's long password", address: "10.9.9.9" })).toEqual({ name: "bob" });
  });

  it("locks an address that tries many accounts, and lets the window pass", async () => {
    let now = 1_000_000;
    const signIn = createPasswordSignIn(() => now);
    for (let i = 0; i < ADDRESS_LIMIT.max; i++) {
      await expect(signIn({ name: `user${i}`, password: "guess guess guess", address: "192.0.2.7" })).rejects.toThrow(WRONG_CREDENTIALS);
    }
    await expect(signIn({ name: "bob", password: "bob's long password", address: "192.0.2.7" })).rejects.toThrow(/too many failed sign-ins/);
    expect(await signIn({ name: "bob", password: "bob's long password", address: "192.0.2.8" })).toEqual({ name: "bob" });
    now += ADDRESS_LIMIT.windowMs + 1;
    expect(await signIn({ name: "bob", password: "bob's long password", address: "192.0.2.7" })).toEqual({ name: "bob" });
  });

  it("takes the address from the nearest X-Forwarded-For hop", () => {
    expect(clientAddress({ "x-forwarded-for": "203.0.113.5, 127.0.0.1" })).toBe("127.0.0.1");
    expect(clientAddress({ "x-forwarded-for": "::1" })).toBe("::1");
    expect(clientAddress({})).toBe("unknown");
  });
});
