import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfig } from "@/lib/env";
import { accountsPath } from "./account-file";
import { addAccount, removeAccount } from "./accounts";
import { accountOfToken, issueToken, revokeTokens } from "./tokens";

describe("API tokens", () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fn-tokens-"));
    process.env.DATA_DIR = dir;
    resetConfig();
    await addAccount("agent", "author", "agent's long password");
    await addAccount("other", "reviewer", "other's long password");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("identify their account, and are stored only as a hash", async () => {
    const { id, token } = await issueToken("agent", "ci");
    expect(token).toMatch(/^fnt_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect((await accountOfToken(token))?.account.name).toBe("agent");
    expect((await accountOfToken(token))?.tokenId).toBe(id);
    const file = fs.readFileSync(accountsPath(dir), "utf8");
    expect(file).toContain(id);
    // The secret is base64url, which may itself hold "_": everything after the id is the secret.
    const secret = token.slice(`fnt_${id}_`.length);
    expect(secret).toHaveLength(43);
    expect(file).not.toContain(secret);
    expect(fs.statSync(accountsPath(dir)).mode & 0o777).toBe(0o600);
  });

  it("stop working when revoked by id, while the account's other tokens keep working", async () => {
    const a = await issueToken("agent");
    const b = await issueToken("agent");
    expect(await revokeTokens(a.id)).toEqual([a.id]);
    expect(await accountOfToken(a.token)).toBeNull();
    expect((await accountOfToken(b.token))?.account.name).toBe("agent");
    await expect(revokeTokens(a.id)).rejects.toThrow(/no account and no live token/);
  });

  it("all stop when revoked by account name, or when the account is removed", async () => {
    const a = await issueToken("other");
    const b = await issueToken("other");
    expect((await revokeTokens("other")).sort()).toEqual([a.id, b.id].sort());
    expect(await accountOfToken(b.token)).toBeNull();
    const c = await issueToken("other");
    await removeAccount("other");
    expect(await accountOfToken(c.token)).toBeNull();
  });

  it("refuse forged and altered tokens", async () => {
    const { token } = await issueToken("agent");
    const altered = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(await accountOfToken(altered)).toBeNull();
    expect(await accountOfToken("fnt_000000000000_" + "x".repeat(43))).toBeNull();
    expect(await accountOfToken("not a token")).toBeNull();
  });

  it("keep concurrent writers from losing each other's changes", async () => {
    const issued = await Promise.all(Array.from({ length: 8 }, () => issueToken("agent")));
    for (const { token } of issued) expect((await accountOfToken(token))?.account.name).toBe("agent");
  });
});
