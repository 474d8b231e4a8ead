import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startGitServer, type GitServer } from "@/e2e/support/git-server";
import { openMirror } from "./mirror";
import { RemoteUnavailableError, type RemoteOptions } from "./remote";
import { createContentStore } from "./store";
import { git, seedFolder, tempDir } from "./testing";

/**
 * Remotes as a first deployment finds them: new, empty repositories whose HEAD names the host's
 * default branch ("master" here), which is not the branch the app pushes ("main"). Once main is
 * pushed, such a remote lists main but no HEAD; git's http-backend serves it, over smart HTTP.
 * Nothing here is unreachable, so nothing may be reported as unreachable.
 */

const USER = "fn";
const PASSWORD = "s3cret-empty-remote-password";
const POLL = 0.3;
/** How long a poll may take to bring a change on a loaded machine (it is never, without a working poll). */
const WAIT_MS = 10_000;
const writer = { name: "Field Notes accounts", email: "accounts@field-notes.invalid" };
let server: GitServer;
let root: string;
let warnings: string[] = [];

const remoteOf = (name: string, ref = "refs/heads/main") => {
  try {
    return git(path.join(root, "repos", `${name}.git`), "rev-parse", "--verify", "-q", ref);
  } catch {
    return null;
  }
};
const remote = (name: string): RemoteOptions => ({ url: `${server.origin}/${name}.git`, user: USER, token: PASSWORD, namespaces: ["refs/heads/"] });
/** A new empty repository on the server, HEAD naming "master" as a host's default setting may. */
const emptyRemote = (name: string) => git(root, "init", "--bare", "-q", "-b", "master", path.join(root, "repos", `${name}.git`));
/** The local main of the mirror at `gitdir`, read from disk (no store kept open). */
const localMain = (gitdir: string) => createContentStore(gitdir).resolve("refs/heads/main");

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms: number): Promise<{ value: T; after: number }> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (ok(value) || Date.now() - started > ms) return { value, after: Date.now() - started };
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  root = tempDir("empty-remote");
  fs.mkdirSync(path.join(root, "repos"));
  server = await startGitServer({ root: path.join(root, "repos"), user: USER, password: PASSWORD });
});

afterAll(async () => {
  await server?.stop();
  fs.rmSync(root, { recursive: true, force: true });
});

const spy = () => {
  warnings = [];
  const record = (...args: unknown[]) => void warnings.push(args.map(String).join(" "));
  vi.spyOn(console, "warn").mockImplementation(record);
  vi.spyOn(console, "error").mockImplementation(record);
};
afterEach(() => vi.restoreAllMocks());

describe("an empty remote is empty, not unreachable", () => {
  it("two instances starting together on an empty remote: one seeds it (compare-and-swap), both end on its main", async () => {
    spy();
    emptyRemote("content");
    const seedDir = seedFolder();
    // Each instance's seed is its own commit (the e2e's two instances seed in different seconds);
    // the loser's seed was never on the remote, so taking the winner's main is no rewind, even for
    // a content remote, which refuses rewinds as the app opens it.
    const seeds = { a: seedFolder(["AFN-001"]), b: seedFolder(["AFN-002"]) };
    const open = (name: "a" | "b") =>
      openMirror(path.join(root, `${name}.git`), {
        remote: { ...remote("content"), mainRewind: "refuse" },
        seedDir: seeds[name],
        label: `content ${name}`,
        pollSeconds: 3600,
      });
    const [a, b] = await Promise.all([open("a"), open("b")]);
    const main = remoteOf("content");
    expect(main).toMatch(/^[0-9a-f]{40}$/);
    // One seed commit won; the other instance took it instead of pushing its own over it.
    expect(git(path.join(root, "repos", "content.git"), "rev-list", "--count", "refs/heads/main")).toBe("1");
    expect(await a.resolve("refs/heads/main")).toBe(main);
    expect(await b.resolve("refs/heads/main")).toBe(main);
    // A third instance starting later, from nothing, clones it.
    const c = await openMirror(path.join(root, "c.git"), { remote: remote("content"), seedDir, label: "content c", pollSeconds: 3600 });
    expect(await c.resolve("refs/heads/main")).toBe(main);
    expect(warnings.filter((w) => w.includes("cannot be reached") || w.includes("rewind"))).toEqual([]);
  });

  it("an instance with nothing to push waits, and takes what another wrote on its next poll", async () => {
    spy();
    emptyRemote("accounts");
    const waiting = await openMirror(path.join(root, "accounts-waiting.git"), {
      remote: remote("accounts"),
      seedDir: null,
      label: "accounts waiting",
      pollSeconds: POLL,
    });
    expect(await waiting.resolve("refs/heads/main")).toBeNull();
    // Another instance (or the user CLI) with a fresh data folder writes the first accounts.
    const cli = await openMirror(path.join(root, "accounts-cli.git"), { remote: remote("accounts"), seedDir: null, label: "accounts cli", pollSeconds: 3600 });
    const written = await cli.commit({
      ref: "refs/heads/main",
      expected: null,
      author: writer,
      message: "Add ada\n",
      changes: { "accounts.json": '{"version":1,"accounts":[]}\n' },
    });
    expect(remoteOf("accounts")).toBe(written.commit);
    const seen = await until(
      () => waiting.resolve("refs/heads/main"),
      (v) => v === written.commit,
      WAIT_MS,
    );
    expect(seen.value).toBe(written.commit);
    // A later fresh data folder (the CLI's next run) opens the remote and writes on its main.
    const later = await openMirror(path.join(root, "accounts-later.git"), {
      remote: remote("accounts"),
      seedDir: null,
      label: "accounts later",
      pollSeconds: 3600,
    });
    expect(await later.resolve("refs/heads/main")).toBe(written.commit);
    const next = await later.commit({
      ref: "refs/heads/main",
      expected: written.commit,
      author: writer,
      message: "Add grace\n",
      changes: { "accounts.json": '{"version":1,"accounts":[1]}\n' },
    });
    expect(remoteOf("accounts")).toBe(next.commit);
    expect(warnings.filter((w) => w.includes("cannot be reached"))).toEqual([]);
  });

  it("a remote that is really down is reported once; polling goes on, and its return is logged and caught up", async () => {
    spy();
    emptyRemote("down");
    const writerStore = await openMirror(path.join(root, "down-writer.git"), {
      remote: remote("down"),
      seedDir: null,
      label: "down writer",
      pollSeconds: 3600,
    });
    await openMirror(path.join(root, "down-known.git"), { remote: remote("down"), seedDir: null, label: "down known", pollSeconds: 3600 });
    await server.stop();
    try {
      // First start, nothing local: nothing true to serve, so the open fails (the caller retries) …
      const first = openMirror(path.join(root, "down-fresh.git"), { remote: remote("down"), seedDir: null, label: "down fresh", pollSeconds: POLL });
      await expect(first).rejects.toBeInstanceOf(RemoteUnavailableError);
      // … and a start with a local mirror serves it.
      await openMirror(path.join(root, "down-known.git"), { remote: remote("down"), seedDir: null, label: "down known", pollSeconds: POLL });
      await new Promise((r) => setTimeout(r, POLL * 1000 * 3));
    } finally {
      await server.start();
    }
    const downLines = (label: string) => warnings.filter((w) => w.startsWith(`${label}:`) && w.includes("cannot be reached"));
    expect(downLines("down fresh")).toHaveLength(1);
    expect(downLines("down known")).toHaveLength(1);
    const written = await writerStore.commit({
      ref: "refs/heads/main",
      expected: null,
      author: writer,
      message: "Add ada\n",
      changes: { "accounts.json": "{}\n" },
    });
    // The instance whose first start failed keeps polling: it has the remote's main within a few polls.
    const caught = await until(
      () => localMain(path.join(root, "down-fresh.git")),
      (v) => v === written.commit,
      WAIT_MS,
    );
    expect(caught.value).toBe(written.commit);
    const back = await until(
      async () => warnings.filter((w) => w.includes("reachable again")),
      (v) => v.length >= 2,
      WAIT_MS,
    );
    expect(back.value.some((w) => w.startsWith("down fresh:"))).toBe(true);
    expect(back.value.some((w) => w.startsWith("down known:"))).toBe(true);
  });
});
