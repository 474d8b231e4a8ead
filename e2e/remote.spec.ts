import { execFile, execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startGitServer, type GitServer } from "./support/git-server";
import { startInstance, userCli, type Instance, sharedRemoteEnv } from "./support/remote-instances";

/**
 * Several instances on one git remote (issue 15), for real: git's own http-backend behind basic
 * auth, two `next start` processes of this build with their own data folders, one content remote
 * and one accounts remote. Plain git plays the agent that pushes from outside.
 */

test.describe.configure({ mode: "serial", timeout: 150_000 });

const GIT_USER = "field-notes";
const GIT_PASSWORD = "remote-e2e-password-1234";
const WEBHOOK_SECRET = "remote-e2e-webhook-secret-5678";
const POLL_SECONDS = 2;
const AUTHOR = { name: "remote-author", password: "remote author's long password" };
const GIT_ENV = {
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Plain Agent",
  GIT_AUTHOR_EMAIL: "agent@example.org",
  GIT_COMMITTER_NAME: "Plain Agent",
  GIT_COMMITTER_EMAIL: "agent@example.org",
  GIT_TERMINAL_PROMPT: "0",
};

let root: string;
let server: GitServer;
let a: Instance;
let b: Instance;
let token: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV }, stdio: ["ignore", "pipe", "pipe"] }).trim();
/** git over the network: never synchronous, since the git server runs in this process. */
const gitNet = (cwd: string, ...args: string[]) =>
  new Promise<string>((resolve, reject) =>
    execFile("git", args, { cwd, encoding: "utf8", env: { ...process.env, ...GIT_ENV }, timeout: 60_000 }, (e, out, err) =>
      e ? reject(new Error(`git ${args[0]}: ${err}`)) : resolve(out.trim()),
    ),
  );
const remoteDir = () => path.join(root, "repos", "content.git");
const remoteRef = (ref: string): string | null => {
  try {
    return git(remoteDir(), "rev-parse", "--verify", "-q", ref);
  } catch {
    return null;
  }
};
const api = (instance: Instance, method: string, pathname: string, body?: unknown, bearer = token) =>
  fetch(`${instance.url}${pathname}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
const sign = (body: string, secret = WEBHOOK_SECRET) => createHmac("sha256", secret).update(body).digest("hex");
const webhook = (instance: Instance, body: string, headers: Record<string, string>) =>
  fetch(`${instance.url}/api/hooks/git`, { method: "POST", headers: { "content-type": "application/json", "x-github-event": "push", ...headers }, body });
const noteMarkdown = async (instance: Instance, id: string) => (await fetch(`${instance.url}/notes/${id}.md`)).text();

const fields = (summary: string) => ({
  title: "Remote saves land once",
  summary,
  phase: "6 architecture",
  tags: ["remote"],
  related: [],
  boundaries: [],
  core: null,
  sections: {
    decision: "Push before the ref moves.",
    invariant: "An acknowledged save is on the remote.",
    rejectedShortcut: "",
    evidence: "",
    claimBoundary: "Says nothing about latency.",
    notes: "",
  },
});

/** A plain-git clone of the remote, changed and pushed the way an agent would. */
async function pushFromOutside(file: string, edit: (text: string) => string, message: string): Promise<string> {
  const work = fs.mkdtempSync(path.join(root, "agent-"));
  const url = `${server.origin.replace("http://", `http://${GIT_USER}:${GIT_PASSWORD}@`)}/content.git`;
  await gitNet(root, "clone", "-q", "--branch", "main", url, work);
  const target = path.join(work, file);
  fs.writeFileSync(target, edit(fs.readFileSync(target, "utf8")));
  git(work, "commit", "-q", "-am", message);
  await gitNet(work, "push", "-q", "origin", "main");
  return git(work, "rev-parse", "HEAD");
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  root = fs.mkdtempSync(path.join(os.tmpdir(), "field-notes-remote-e2e-"));
  fs.mkdirSync(path.join(root, "repos"));
  // Both remotes start empty: the first instance to start gives the content remote its content/.
  git(root, "init", "-q", "--bare", "-b", "main", remoteDir());
  git(root, "init", "-q", "--bare", "-b", "main", path.join(root, "repos", "accounts.git"));
  server = await startGitServer({ root: path.join(root, "repos"), user: GIT_USER, password: GIT_PASSWORD });
  const shared = { ...sharedRemoteEnv(server.origin, { user: GIT_USER, password: GIT_PASSWORD }, POLL_SECONDS), CONTENT_WEBHOOK_SECRET: WEBHOOK_SECRET };
  // The account is written through instance A's data folder; B only ever learns it from the remote.
  const aEnv = { env: { ...shared, DATA_DIR: path.join(root, "a") } };
  await userCli(aEnv, ["add", AUTHOR.name, "--role", "author"], `${AUTHOR.password}\n`);
  token = await userCli(aEnv, ["token", AUTHOR.name, "--label", "remote e2e"]);
  [a, b] = await Promise.all([startInstance("instance-a", path.join(root, "a"), shared), startInstance("instance-b", path.join(root, "b"), shared)]);
});

test.afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await server?.stop();
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

test("both instances serve the remote's content, and an account written on one is known to the other", async () => {
  const main = remoteRef("refs/heads/main");
  expect(main).toMatch(/^[0-9a-f]{40}$/);
  for (const instance of [a, b]) {
    expect((await fetch(`${instance.url}/`)).status).toBe(200);
    expect((await api(instance, "GET", "/api/studio/notes")).status).toBe(200);
  }
  // Accounts never travel with the content.
  expect(git(remoteDir(), "ls-tree", "-r", "--name-only", "refs/heads/main")).not.toContain("accounts.json");
});

let ids: string[] = [];

test("20 concurrent New note across both instances get 20 distinct ids", async () => {
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => api(i % 2 ? b : a, "POST", "/api/studio/notes", {})));
  const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ id: string }>));
  expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
  ids = bodies.map((x) => x.id);
  expect(new Set(ids).size).toBe(20);
  // Every claim is a branch on the remote.
  for (const id of ids) expect(remoteRef(`refs/heads/drafts/${id}`)).not.toBeNull();
});

test("100 concurrent saves over both instances: each 200 or 409, the remote holds exactly the 200s", async () => {
  const notes = ids.slice(0, 10);
  const base = remoteRef("refs/heads/main")!;
  const results = await Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const instance = i % 2 ? b : a;
      const id = notes[i % notes.length]!;
      const read = await api(instance, "GET", `/api/studio/notes/${id}`);
      expect(read.status).toBe(200);
      const { revision } = (await read.json()) as { revision: string };
      const summary = `Save ${i} through ${instance.name}.`;
      const r = await api(instance, "PUT", `/api/studio/notes/${id}`, { revision, note: fields(summary) });
      const body = (await r.json()) as { saved?: boolean; revision?: string; error?: { code: string; message: string } };
      return { id, summary, status: r.status, body };
    }),
  );
  const unexpected = results.filter((r) => r.status !== 200 && r.status !== 409);
  expect(unexpected.map((r) => `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`)).toEqual([]);
  const acknowledged = results.filter((r) => r.status === 200 && r.body.saved);
  expect(acknowledged.length).toBeGreaterThanOrEqual(notes.length);
  test
    .info()
    .annotations.push({ type: "saves", description: `${acknowledged.length} saved (200), ${results.filter((r) => r.status === 409).length} stale (409)` });

  // The remote's history of the drafts holds exactly the acknowledged saves: each one, and nothing else.
  const onRemote = new Map<string, string>();
  for (const id of notes) {
    const log = git(remoteDir(), "log", "--format=%H", `refs/heads/drafts/${id}`, `^${base}`);
    for (const commit of log ? log.split("\n") : []) onRemote.set(commit, id);
  }
  expect(onRemote.size).toBe(acknowledged.length);
  for (const saved of acknowledged) {
    expect(onRemote.get(saved.body.revision!)).toBe(saved.id);
    expect(git(remoteDir(), "show", `${saved.body.revision}:notes/${saved.id}.md`)).toContain(saved.summary);
  }
  expect(git(remoteDir(), "fsck", "--strict", "--no-dangling")).toBe("");
});

test("a plain-git push appears on both instances at once after a signed webhook", async () => {
  const marker = `Changed by a plain-git push ${Date.now()}.`;
  const before = await noteMarkdown(a, "AFN-021");
  expect(before).not.toContain(marker);
  await pushFromOutside("notes/AFN-021.md", (t) => t.replace(/^summary: .*$/m, `summary: ${marker}`), "Agent edits AFN-021's summary");
  const body = JSON.stringify({ ref: "refs/heads/main", repository: { full_name: "field-notes/content" } });
  // The GitHub header on one, Gitea's on the other.
  const [ra, rb] = await Promise.all([
    webhook(a, body, { "x-hub-signature-256": `sha256=${sign(body)}` }),
    webhook(b, body, { "x-gitea-signature": sign(body) }),
  ]);
  expect([ra.status, rb.status]).toEqual([200, 200]);
  expect(await noteMarkdown(a, "AFN-021")).toContain(marker);
  expect(await noteMarkdown(b, "AFN-021")).toContain(marker);
});

test("an unsigned or wrongly signed webhook is refused with 401", async () => {
  const body = JSON.stringify({ ref: "refs/heads/main" });
  const unsigned = await webhook(a, body, {});
  expect(unsigned.status).toBe(401);
  expect(((await unsigned.json()) as { error: { message: string } }).error.message).toMatch(/not signed/);
  const wrong = await webhook(b, body, { "x-hub-signature-256": `sha256=${sign(body, "not-the-webhook-secret-at-all")}` });
  expect(wrong.status).toBe(401);
  const tampered = await webhook(a, `${body} `, { "x-gitea-signature": sign(body) });
  expect(tampered.status).toBe(401);
});

test("without a webhook, a plain-git push appears on both instances within the poll interval", async () => {
  const marker = `Polled change ${Date.now()}.`;
  await pushFromOutside("notes/AFN-019.md", (t) => t.replace(/^summary: .*$/m, `summary: ${marker}`), "Agent edits AFN-019's summary");
  const pushed = Date.now();
  for (const instance of [a, b]) {
    // One interval, plus the fetch itself on a loaded machine.
    await expect.poll(() => noteMarkdown(instance, "AFN-019"), { timeout: POLL_SECONDS * 1000 * 4, intervals: [200] }).toContain(marker);
  }
  test.info().annotations.push({ type: "poll", description: `seen on both ${Date.now() - pushed} ms after the push (CONTENT_POLL_SECONDS=${POLL_SECONDS})` });
});

test("remote down: reads keep working, writes answer 503 with nothing written; back up: writes work and the instances converge", async () => {
  const id = ids[15]!;
  const { revision } = (await (await api(a, "GET", `/api/studio/notes/${id}`)).json()) as { revision: string };
  const remoteBefore = remoteRef(`refs/heads/drafts/${id}`);
  await server.stop();
  try {
    for (const instance of [a, b]) {
      expect((await fetch(`${instance.url}/`)).status).toBe(200);
      expect(await noteMarkdown(instance, "AFN-019")).toContain("Polled change");
    }
    const refused = await api(a, "PUT", `/api/studio/notes/${id}`, { revision, note: fields("Written while the remote is down.") });
    expect(refused.status).toBe(503);
    const error = ((await refused.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("remote-unavailable");
    expect(error.message).toMatch(/cannot be reached.*nothing was saved/);
    expect(error.message).not.toContain(GIT_PASSWORD);
    // Nothing half-written: the instance still shows the revision it had.
    const still = (await (await api(a, "GET", `/api/studio/notes/${id}`)).json()) as { revision: string };
    expect(still.revision).toBe(revision);
    expect(remoteRef(`refs/heads/drafts/${id}`)).toBe(remoteBefore);
  } finally {
    await server.start();
  }
  const saved = await api(a, "PUT", `/api/studio/notes/${id}`, { revision, note: fields("Written after the remote came back.") });
  expect(saved.status).toBe(200);
  const { revision: after } = (await saved.json()) as { revision: string };
  expect(remoteRef(`refs/heads/drafts/${id}`)).toBe(after);
  await expect
    .poll(async () => ((await (await api(b, "GET", `/api/studio/notes/${id}`)).json()) as { revision: string }).revision, {
      timeout: POLL_SECONDS * 1000 * 4,
      intervals: [200],
    })
    .toBe(after);
});

test("a token revoked through one instance is refused by the other within the poll interval", async () => {
  const aEnv = { env: a.env };
  const fresh = await userCli(aEnv, ["token", AUTHOR.name, "--label", "to revoke"]);
  await expect
    .poll(async () => (await api(b, "GET", "/api/studio/notes", undefined, fresh)).status, { timeout: POLL_SECONDS * 1000 * 4, intervals: [200] })
    .toBe(200);
  const id = /^fnt_([0-9a-f]{12})_/.exec(fresh)![1]!;
  await userCli(aEnv, ["revoke", id]);
  const revoked = Date.now();
  // The instance it was revoked through refuses it at once; the other after its next poll.
  expect((await api(a, "GET", "/api/studio/notes", undefined, fresh)).status).toBe(401);
  await expect
    .poll(async () => (await api(b, "GET", "/api/studio/notes", undefined, fresh)).status, { timeout: POLL_SECONDS * 1000 * 4, intervals: [200] })
    .toBe(401);
  test.info().annotations.push({ type: "revocation", description: `refused by the other instance ${Date.now() - revoked} ms after the revoke` });
  // The other token of the account still works on both.
  expect((await api(b, "GET", "/api/studio/notes")).status).toBe(200);
});
