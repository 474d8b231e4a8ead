import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/** `npm run user`, run as a newcomer runs it: a real process, the password on standard input. */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-user-cli-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function user(args: string[], input = "") {
  const r = spawnSync(path.resolve("node_modules/.bin/tsx"), ["scripts/user.ts", ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    input,
    encoding: "utf8",
  });
  return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
}

describe("npm run user", () => {
  it("adds an author with the password from standard input, stored only as a scrypt hash", () => {
    const added = user(["add", "alice", "--role", "author"], "a long enough password\n");
    expect(added).toMatchObject({ code: 0, out: `added alice (author) to ${dataDir}/accounts.json` });
    const file = fs.readFileSync(path.join(dataDir, "accounts.json"), "utf8");
    expect(file).toContain('"role": "author"');
    expect(file).toMatch(/"password": "scrypt\$/);
    expect(file).not.toContain("a long enough password");
    expect(fs.statSync(path.join(dataDir, "accounts.json")).mode & 0o777).toBe(0o600);
  });

  it("refuses what it cannot use, saying why", () => {
    expect(user(["add", "bob", "--role", "admin"], "a long enough password\n")).toMatchObject({
      code: 2,
      err: expect.stringContaining("--role must be author or reviewer"),
    });
    expect(user(["add", "bob", "--role", "reviewer"], "short\n")).toMatchObject({ code: 1, err: "the password must be at least 10 characters long" });
    expect(user(["add", "Bob Smith", "--role", "reviewer"], "a long enough password\n")).toMatchObject({
      code: 1,
      err: expect.stringContaining('"Bob Smith" is not a usable account name'),
    });
    expect(user(["add", "alice", "--role", "reviewer"], "a long enough password\n")).toMatchObject({ code: 1, err: 'an account named "alice" already exists' });
    expect(user(["frobnicate"])).toMatchObject({ code: 2, err: expect.stringContaining('unknown command "frobnicate"') });
  });

  it("prints a token once, lists it by id, and revokes it", () => {
    const issued = user(["token", "alice", "--label", "ci"]);
    expect(issued.code).toBe(0);
    expect(issued.out).toMatch(/^fnt_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    const id = issued.out.split("_")[1] ?? "";
    expect(issued.err).toContain(`new API token ${id} for alice; it is shown only now`);
    expect(fs.readFileSync(path.join(dataDir, "accounts.json"), "utf8")).not.toContain(issued.out);
    expect(user(["list"]).out).toMatch(new RegExp(`alice\\tauthor\\tadded .*\\n  token ${id}\\tlive\\tissued .*\\tci`));
    expect(user(["revoke", id])).toMatchObject({ code: 0, out: `revoked 1 token: ${id}` });
    expect(user(["list"]).out).toMatch(new RegExp(`token ${id}\\trevoked `));
  });

  it("changes an account's role, saying its sessions have ended, and refuses a role it has or does not know", () => {
    user(["add", "carl", "--role", "author"], "carl's long password\n");
    expect(user(["role", "carl", "reviewer"])).toMatchObject({ code: 0, out: "carl is now a reviewer; its sessions have ended" });
    expect(user(["list"]).out).toMatch(/carl\treviewer\t/);
    expect(user(["role", "carl", "reviewer"])).toMatchObject({ code: 1, err: "carl is already a reviewer" });
    expect(user(["role", "carl", "admin"])).toMatchObject({ code: 2, err: expect.stringContaining("the role must be author or reviewer") });
    expect(user(["role", "nobody", "author"])).toMatchObject({ code: 1, err: 'there is no account named "nobody"' });
  });

  it("adds an account with a display name, changes it, and refuses an empty one; an account without one lists as before", () => {
    expect(user(["add", "ada", "--name", "Ada Lovelace", "--role", "author"], "ada's long password\n")).toMatchObject({
      code: 0,
      out: `added ada (author) as "Ada Lovelace" to ${dataDir}/accounts.json`,
    });
    expect(user(["list"]).out).toMatch(/ada\tauthor\tadded \S+\tAda Lovelace/);
    expect(user(["name", "ada", "Augusta Ada King"])).toMatchObject({ code: 0, out: 'ada is now shown as "Augusta Ada King"' });
    const file = JSON.parse(fs.readFileSync(path.join(dataDir, "accounts.json"), "utf8")) as { accounts: { name: string; displayName?: string }[] };
    expect(file.accounts.find((a) => a.name === "ada")?.displayName).toBe("Augusta Ada King");
    expect(file.accounts.find((a) => a.name === "alice")?.displayName).toBeUndefined();
    expect(user(["name", "ada", "   "])).toMatchObject({ code: 1, err: "the display name is empty" });
    expect(user(["name", "nobody", "No One"])).toMatchObject({ code: 1, err: 'there is no account named "nobody"' });
    expect(user(["add", "eve", "--name", "", "--role", "author"], "eve's long password\n")).toMatchObject({ code: 1, err: "the display name is empty" });
    expect(user(["list"]).out).toMatch(/alice\tauthor\tadded \S+\n/);
  });

  it("removes an account", () => {
    user(["add", "rita", "--role", "reviewer"], "rita's long password\n");
    expect(user(["remove", "rita"])).toMatchObject({ code: 0, out: "removed rita; its sessions and tokens no longer work" });
    expect(user(["list"]).out).not.toContain("rita");
    expect(user(["remove", "rita"])).toMatchObject({ code: 1, err: 'there is no account named "rita"' });
  });

  it("is what package.json runs", () => {
    const pkg = JSON.parse(fs.readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.user).toBe("tsx scripts/user.ts");
  });
});
