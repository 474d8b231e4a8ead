import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { addAccount } from "./accounts";
import { clientAddress, forwardClientAddress } from "@/lib/web/client-address";
import { FailureBackoff } from "./rate-limit";
import { ACCOUNT_BACKOFF, ADDRESS_BACKOFF, createPasswordSignIn, WRONG_CREDENTIALS } from "./sign-in";

describe("failure backoff", () => {
  it("lets the free failures pass, then doubles the wait with each failure up to its cap, and forgets a quiet key", () => {
    let now = 0;
    const backoff = new FailureBackoff({ free: 2, baseMs: 1000, maxMs: 5000, forgetMs: 60_000 }, () => now);
    backoff.fail("k");
    expect(backoff.retryAfter("k")).toBe(0);
    backoff.fail("k");
    expect(backoff.retryAfter("k")).toBe(1000);
    now = 1000;
    expect(backoff.retryAfter("k")).toBe(0);
    backoff.fail("k");
    expect(backoff.retryAfter("k")).toBe(2000);
    backoff.fail("k");
    expect(backoff.retryAfter("k")).toBe(4000);
    backoff.fail("k");
    expect(backoff.retryAfter("k")).toBe(5000);
    expect(backoff.retryAfter("other")).toBe(0);
    now += 60_001;
    expect(backoff.failures("k")).toBe(0);
    expect(backoff.retryAfter("k")).toBe(0);
  });

  it("keeps at most maxKeys keys, dropping the least recently failed", () => {
    const backoff = new FailureBackoff({ free: 0, baseMs: 1000, maxMs: 1000, forgetMs: 60_000 }, () => 0, 3);
    for (const key of ["a", "b", "c", "a", "d"]) backoff.fail(key);
    expect(["a", "b", "c", "d"].map((k) => backoff.failures(k))).toEqual([2, 0, 1, 1]);
  });
});

/** The request headers authorize() gets: the proxy's step, then Next's x-forwarded-for ??= socket. */
function asNextSees(socket: string, forwardedFor: string): Record<string, string> {
  const headers = Object.fromEntries(forwardClientAddress(new Headers({ "x-forwarded-for": forwardedFor })));
  headers["x-forwarded-for"] ??= socket;
  return headers;
}

describe("password sign-in", () => {
  let dir: string;
  const OWNER = { name: "alice", password: "alice's long password" };
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fn-signin-"));
    process.env.DATA_DIR = dir;
    resetConfig();
    await addAccount("alice", "author", OWNER.password);
    await addAccount("bob", "reviewer", "bob's long password");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A sign-in with an injectable clock and a log it keeps. */
  function harness() {
    const clock = { now: 1_000_000 };
    const log: string[] = [];
    const signIn = createPasswordSignIn({ now: () => clock.now, log: (line) => log.push(line) });
    return { clock, log, signIn };
  }

  it("signs in with the right password and says the same thing for a wrong password and an unknown account", async () => {
    const { signIn } = harness();
    expect(await signIn({ name: "Alice", password: OWNER.password, address: "10.0.0.1" })).toEqual({ name: "alice", sessionKey: expect.any(String) });
    await expect(signIn({ name: "alice", password: "nope nope nope", address: "10.0.0.1" })).rejects.toThrow(WRONG_CREDENTIALS);
    await expect(signIn({ name: "mallory", password: "nope nope nope", address: "10.0.0.1" })).rejects.toThrow(WRONG_CREDENTIALS);
  });

  it("slows an account down after its free failures, from any address, and never for longer than its cap", async () => {
    const { clock, log, signIn } = harness();
    for (let i = 0; i < ACCOUNT_BACKOFF.free; i++) {
      await expect(signIn({ name: "alice", password: `wrong guess ${i}`, address: `10.1.0.${i}` })).rejects.toThrow(WRONG_CREDENTIALS);
    }
    // Even the right password waits: a guess that happened to be right must not get through either.
    await expect(signIn({ name: "alice", password: OWNER.password, address: "10.9.9.9" })).rejects.toThrow("too many failed sign-ins; try again in 15 seconds");
    expect(log.at(-1)).toMatch(/^sign-in refused: account "alice" from 10\.9\.9\.9, 5 failures on the account, 0 from the address; may try again in 15 s$/);
    // Another account is not affected.
    expect(await signIn({ name: "bob", password: "bob's long password", address: "10.9.9.9" })).toEqual({ name: "bob", sessionKey: expect.any(String) });
    clock.now += ACCOUNT_BACKOFF.baseMs;
    expect(await signIn({ name: "alice", password: OWNER.password, address: "10.9.9.9" })).toEqual({ name: "alice", sessionKey: expect.any(String) });
  });

  it("after a long attack on the owner's account from one place with rotating forged addresses, the owner signs in from a clean address within the account's cap", async () => {
    const { clock, log, signIn } = harness();
    // Each attempt comes from the attacker's socket, 192.0.2.66, with a fresh forged
    // X-Forwarded-For; the address is read the way authorize() reads it.
    const attacker = "192.0.2.66";
    const addressOf = (forged: string) => clientAddress(asNextSees(attacker, forged));
    let failures = 0;
    let refusals = 0;
    // Two hours of trying once a second.
    for (let t = 0; t < 2 * 60 * 60; t++) {
      clock.now += 1000;
      try {
        await signIn({ name: "alice", password: `guess ${t}`, address: addressOf(`198.51.${t % 250}.${t % 199}`) });
      } catch (e) {
        if ((e as Error).message === WRONG_CREDENTIALS) failures++;
        else refusals++;
      }
    }
    // Backoff let only a handful of guesses through: 10 free, then waits of 15 s, 30 s … 15 min.
    expect(failures).toBeLessThan(30);
    expect(refusals).toBe(2 * 60 * 60 - failures);
    expect(log).toHaveLength(refusals);

    // The owner tries right away, from a clean address: at most the account's cap to wait.
    const owner = "198.51.100.20";
    let waited = 0;
    for (;;) {
      try {
        expect(await signIn({ name: "alice", password: OWNER.password, address: owner })).toEqual({ name: "alice", sessionKey: expect.any(String) });
        break;
      } catch (e) {
        expect((e as Error).message).toMatch(/^too many failed sign-ins; try again in \d+ seconds?$/);
        clock.now += 1000;
        waited += 1000;
      }
      expect(waited).toBeLessThanOrEqual(ACCOUNT_BACKOFF.maxMs);
    }
    // …while the attacker's own address still waits far longer than the account did.
    await expect(signIn({ name: "alice", password: "one more guess", address: addressOf("198.51.100.20") })).rejects.toThrow(
      /too many failed sign-ins; try again in \d+ minutes/,
    );
  });

  it("counts an address's failures across accounts, and the count outlives the account's", async () => {
    const { clock, signIn } = harness();
    for (let i = 0; i < ADDRESS_BACKOFF.free; i++) {
      await expect(signIn({ name: `user${i}`, password: "guess guess guess", address: "192.0.2.7" })).rejects.toThrow(WRONG_CREDENTIALS);
    }
    await expect(signIn({ name: "bob", password: "bob's long password", address: "192.0.2.7" })).rejects.toThrow(
      "too many failed sign-ins; try again in 15 seconds",
    );
    expect(await signIn({ name: "bob", password: "bob's long password", address: "192.0.2.8" })).toEqual({ name: "bob", sessionKey: expect.any(String) });
    clock.now += ADDRESS_BACKOFF.baseMs;
    expect(await signIn({ name: "bob", password: "bob's long password", address: "192.0.2.7" })).toEqual({ name: "bob", sessionKey: expect.any(String) });
    // A success does not wipe the address's record: one more failure doubles its wait.
    await expect(signIn({ name: "user-x", password: "guess guess guess", address: "192.0.2.7" })).rejects.toThrow(WRONG_CREDENTIALS);
    await expect(signIn({ name: "bob", password: "bob's long password", address: "192.0.2.7" })).rejects.toThrow(
      "too many failed sign-ins; try again in 30 seconds",
    );
  });

  it("counts an IPv6 host by its /64, so rotating through its own addresses does not start it afresh", async () => {
    const { signIn } = harness();
    for (let i = 0; i < ADDRESS_BACKOFF.free; i++) {
      await expect(signIn({ name: `v6user${i}`, password: "guess guess guess", address: `2001:db8:1:2::${(i + 1).toString(16)}` })).rejects.toThrow(
        WRONG_CREDENTIALS,
      );
    }
    await expect(signIn({ name: "bob", password: "bob's long password", address: "2001:db8:1:2:ffff::1" })).rejects.toThrow(/too many failed sign-ins/);
    expect(await signIn({ name: "bob", password: "bob's long password", address: "2001:db8:1:3::1" })).toEqual({ name: "bob", sessionKey: expect.any(String) });
  });
});
