import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { git, tempDir } from "@/lib/store/testing";

/**
 * `npm run user` with ACCOUNTS_REMOTE, each run from a fresh data folder (a new machine, a CI job),
 * against an accounts repository created new and empty on a host whose default branch is "master":
 * the first run creates its main, every later one reads and writes it. Served by git's http-backend
 * in this process, so the CLI runs asynchronously.
 */

const USER = "fn";
const PASSWORD = "user-cli-remote-password";
let root: string;
let server: GitServer;

function user(dataDir: string, args: string[], input = ""): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      path.resolve("node_modules/.bin/tsx"),
      ["scripts/user.ts", ...args],
      {
        env: {
          ...process.env,
          DATA_DIR: path.join(root, dataDir),
          ACCOUNTS_REMOTE: `${server.origin}/accounts.git`,
          ACCOUNTS_REMOTE_USER: USER,
          ACCOUNTS_REMOTE_TOKEN: PASSWORD,
        },
        encoding: "utf8",
        timeout: 60_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: stdout.trim(), err: stderr.trim() }),
    );
    child.stdin?.end(input);
  });
}

beforeAll(async () => {
  root = tempDir("user-cli-remote");
  fs.mkdirSync(path.join(root, "repos"));
  git(root, "init", "--bare", "-q", "-b", "master", path.join(root, "repos", "accounts.git"));
  server = await startGitServer({ root: path.join(root, "repos"), user: USER, password: PASSWORD });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const onRemote = () => git(path.join(root, "repos", "accounts.git"), "show", "refs/heads/main:accounts.json");

describe("npm run user with ACCOUNTS_REMOTE, from fresh data folders", () => {
  it("the first run writes the empty repository's first accounts; a run from another fresh folder adds to them", async () => {
    const first = await user("first", ["add", "ada", "--role", "author"], "ada's long password\n");
    expect(first).toMatchObject({ code: 0, out: `added ada (author) to the accounts repository ${server.origin}/accounts.git` });
    expect(onRemote()).toContain('"ada"');
    expect(fs.existsSync(path.join(root, "first", "accounts.json"))).toBe(false);

    const second = await user("second", ["add", "grace", "--role", "reviewer"], "grace's long password\n");
    expect(second).toMatchObject({ code: 0, out: expect.stringContaining("added grace (reviewer)") });
    expect(onRemote()).toContain('"ada"');
    expect(onRemote()).toContain('"grace"');

    const listed = await user("third", ["list"]);
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^ada\tauthor\t/m);
    expect(listed.out).toMatch(/^grace\treviewer\t/m);
  });
});
