import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { studioFixture } from "@/lib/testing/studio";
import { STALE_UNATTRIBUTED_MS } from "./ref-lock";
import { fsck } from "./testing";

/**
 * Issue 14, finding 1: `kill -9` during saves left `<draft>.lock` behind and every later save to
 * that draft answered 409 for good. Here a studio server (the real route handlers, in a child
 * process) is killed with SIGKILL at random moments while eight loops save to four drafts at once.
 * Afterwards every save the server acknowledged is in its draft's history with its content, the
 * repository passes `git fsck --strict`, and after one more restart a save to every draft succeeds
 * within seconds. Some kills are made while the server certainly holds a lock (and one lock is
 * planted as native git leaves it), so the stale-lock rule is exercised on every run; the random
 * kills' leftover locks are counted too.
 */

const KILLS = Number(process.env.LOCKS_KILLS ?? 20);
const SCRIPT = path.join(import.meta.dirname, "crash-server.script.ts");

let f: Awaited<ReturnType<typeof studioFixture>>;
let bundle: string;
beforeAll(async () => {
  f = await studioFixture();
  // Bundled once (our TypeScript only; packages load from node_modules), a server loads in half the time tsx takes.
  bundle = path.join(f.dataDir, "crash-server.cjs");
  await build({
    entryPoints: [SCRIPT],
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "cjs",
    packages: "external",
    // The route handlers say "server-only"; in this node process they are the server.
    alias: { "server-only": path.resolve("node_modules/server-only/empty.js") },
    target: "node20",
    logLevel: "error",
  });
});
const children = new Set<ChildProcess>();
/** Every server this test started: any of them may be the one that logs a removal (a standby's start runs one too). */
const servers: Server[] = [];
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  f?.cleanup();
});

type Server = { proc: ChildProcess; loaded: Promise<void>; start: () => Promise<number>; exited: Promise<void>; stderr: string[] };

/** A server process (crash-server.script.ts), loaded and waiting for "go" (loading takes seconds here; starting, milliseconds). */
function spawnServer(): Server {
  const proc = spawn(process.execPath, [bundle], {
    cwd: process.cwd(),
    env: { ...process.env, NODE_PATH: path.resolve("node_modules"), DATA_DIR: f.dataDir, CRASH_SERVER_AUTH: f.authorToken.headers.authorization },
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.add(proc);
  const stderr: string[] = [];
  createInterface({ input: proc.stderr! }).on("line", (line) => stderr.push(line));
  const lines = createInterface({ input: proc.stdout! });
  const exited = new Promise<void>((resolve) => proc.once("close", () => (children.delete(proc), resolve())));
  const next = (key: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const onLine = (line: string) => {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (key in message) {
          lines.off("line", onLine);
          resolve(message);
        }
      };
      lines.on("line", onLine);
      void exited.then(() => reject(new Error(`the server exited before "${key}": ${stderr.join("\n")}`)));
    });
  const loaded = next("loaded").then(() => undefined);
  const started = next("port");
  // A standby killed unused never reports either; only a server the test waits on may fail it.
  loaded.catch(() => undefined);
  started.catch(() => undefined);
  const start = async () => {
    proc.stdin!.write("go\n");
    return (await started).port as number;
  };
  const server = { proc, loaded, start, exited, stderr };
  servers.push(server);
  return server;
}

/** The server the save loops talk to; null while the test has it down. */
let port: number | null = null;
let up: Promise<void> = Promise.resolve();
let markUp = () => {};
const goDown = () => {
  port = null;
  up = new Promise((resolve) => (markUp = resolve));
};

async function call(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
    method,
    headers: { ...f.authorToken.headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const filled = (title: string) => ({
  title,
  summary: "Set before the crashes.",
  phase: "6 architecture",
  tags: ["storage"],
  related: [],
  boundaries: [],
  core: null,
  sections: {
    decision: "Keep every save.",
    invariant: "No acknowledged save is lost.",
    rejectedShortcut: "",
    evidence: "",
    claimBoundary: "Says nothing about speed.",
    notes: "",
  },
});

type Ack = { id: string; token: string };

/** One author saving one draft over and over: re-read, change the summary and notes, save; only a 200 that says saved counts. */
async function saveLoop(id: string, loop: string, acks: Ack[], stats: Record<string, number>, running: () => boolean) {
  for (let n = 0; running(); n++) {
    await up;
    if (!running()) return;
    const token = `crash-${loop}-${n}`;
    try {
      const read = await call("GET", `/api/studio/notes/${id}`);
      if (read.status !== 200) throw new Error(`GET ${id} answered ${read.status}: ${JSON.stringify(read.body)}`);
      const note = { ...read.body.fields, summary: `Saved as ${token}.`, sections: { ...read.body.fields.sections, notes: `Written by ${token}.` } };
      const saved = await call("PUT", `/api/studio/notes/${id}`, { revision: read.body.revision, note });
      if (saved.status === 200 && saved.body.saved) acks.push({ id, token });
      else if (saved.status === 409) stats[saved.body.error?.code] = (stats[saved.body.error?.code] ?? 0) + 1;
      else throw new Error(`PUT ${id} answered ${saved.status}: ${JSON.stringify(saved.body)}`);
    } catch (e) {
      // fetch's own failures ("fetch failed", "terminated"): the server was killed under this request.
      if (!(e instanceof TypeError && /^(fetch failed|terminated)$/.test(e.message)) && port !== null) throw e;
      stats.cut = (stats.cut ?? 0) + 1;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

function locksIn(gitdir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".lock")) found.push(path.relative(gitdir, full));
    }
  };
  walk(path.join(gitdir, "refs"));
  if (fs.existsSync(path.join(gitdir, "packed-refs.lock"))) found.push("packed-refs.lock");
  return found;
}

const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8", maxBuffer: 64 << 20 });

describe("a server killed during saves", () => {
  it("loses no acknowledged save, leaves a clean repository, and no draft stays locked", async () => {
    let server = spawnServer();
    await server.loaded;
    port = await server.start();
    // Standby servers load while the current one runs (loading takes seconds; starting, milliseconds).
    const standbys = [spawnServer(), spawnServer(), spawnServer()];

    // Four drafts: three new notes and a published note's first draft (its branch is created by a save).
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await call("POST", "/api/studio/notes", {});
      expect(created.status).toBe(201);
      const first = await call("PUT", `/api/studio/notes/${created.body.id}`, { revision: created.body.revision, note: filled(`Crash test note ${i}`) });
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      ids.push(created.body.id);
    }
    ids.push("AFN-016");

    const acks: Ack[] = [];
    const stats: Record<string, number> = {};
    let running = true;
    // One author per draft, and two on the first, whose saves also race each other (stale 409s).
    const loops = [...ids, ids[0]!].map((id, n) => saveLoop(id, String(n), acks, stats, () => running));

    const leftAfterRandomKills: string[] = [];
    const leftAfterHeldKills: string[] = [];
    try {
      for (let kill = 0; kill < KILLS; kill++) {
        // Every fifth kill lands while the server certainly holds a lock (a draft's, or main's); the rest at random.
        const holding = kill % 5 === 4 ? (kill % 10 === 4 ? `refs/heads/drafts/${ids[kill % ids.length]}` : "refs/heads/main") : null;
        // The next server loads while this one serves the loops; then, at a random moment, this one dies.
        await standbys[0]!.loaded;
        await new Promise((r) => setTimeout(r, 200 + Math.random() * 1000));
        if (holding) expect((await fetch(`http://127.0.0.1:${port}/hold-lock?ref=${holding}`, { method: "POST" })).status).toBe(200);
        // The standbys still loading open the store, which clears stale locks (ensureContentRepo): paused,
        // they cannot remove the dead server's locks before they are counted.
        for (const s of standbys) s.proc.kill("SIGSTOP");
        server.proc.kill("SIGKILL");
        goDown();
        await server.exited;
        (holding ? leftAfterHeldKills : leftAfterRandomKills).push(...locksIn(f.gitdir));
        for (const s of standbys) s.proc.kill("SIGCONT");
        // The next server starts on the repository as the crash left it.
        server = standbys.shift()!;
        port = await server.start();
        markUp();
        standbys.push(spawnServer());
      }
    } finally {
      running = false;
      markUp();
      await Promise.all(loops);
    }
    server.proc.kill("SIGKILL");
    goDown();
    await server.exited;

    // One more kind of leftover, planted as native git leaves it when it dies: the new value, no writer.
    // (Standbys still loading are paused while it is planted and counted, as above.)
    for (const s of standbys) s.proc.kill("SIGSTOP");
    const planted = path.join(f.gitdir, `refs/heads/drafts/${ids[0]}.lock`);
    fs.writeFileSync(planted, `${git("rev-parse", "refs/heads/main").trim()}\n`);
    const old = new Date(Date.now() - STALE_UNATTRIBUTED_MS - 5000);
    fs.utimesSync(planted, old, old);
    const leftAtRestart = locksIn(f.gitdir);
    for (const s of standbys) s.proc.kill("SIGCONT");

    // Restart: a save to every draft succeeds within a few seconds.
    server = standbys.shift()!;
    await server.loaded;
    const restarted = Date.now();
    port = await server.start();
    markUp();
    for (const id of ids) {
      const read = await call("GET", `/api/studio/notes/${id}`);
      const note = { ...read.body.fields, summary: `Saved after the restart.` };
      const saved = await call("PUT", `/api/studio/notes/${id}`, { revision: read.body.revision, note });
      expect(saved.status, `${id}: ${JSON.stringify(saved.body)}`).toBe(200);
      expect(saved.body.saved).toBe(true);
    }
    const afterRestartMs = Date.now() - restarted;
    expect(afterRestartMs).toBeLessThan(15_000); // a lock left standing would cost 2 s of waiting and a 409 per save
    expect(locksIn(f.gitdir)).toEqual([]);
    // Native git can write every draft again too.
    for (const id of ids) git("update-ref", `refs/heads/drafts/${id}`, `refs/heads/drafts/${id}`);
    server.proc.kill("SIGKILL");
    await server.exited;
    for (const spare of standbys) spare.proc.kill("SIGKILL");
    await Promise.all(servers.map((s) => s.exited));

    // The rule really ran: kills that held a lock left one, and each stale lock went with a log line.
    console.info(
      `load ${os.loadavg()[0]!.toFixed(1)}: ${KILLS} kills, ${acks.length} acknowledged saves, 409s ${JSON.stringify(stats)}; locks left by random kills: ${leftAfterRandomKills.length}` +
        ` [${leftAfterRandomKills.join(", ")}], by kills holding a lock: ${leftAfterHeldKills.length}; cleared after restart in ${afterRestartMs} ms`,
    );
    expect(leftAfterHeldKills.length).toBeGreaterThanOrEqual(4);
    expect(stats.locked ?? 0).toBe(0); // no save ever waited out a dead writer's lock
    expect(leftAtRestart).toContain(path.relative(f.gitdir, planted));
    const removed = servers.flatMap((s) => s.stderr).filter((line) => line.startsWith("content store: removed stale lock"));
    expect(removed.length).toBeGreaterThanOrEqual(leftAfterRandomKills.length + leftAfterHeldKills.length + 1);
    expect(removed).toContainEqual(expect.stringContaining(`${planted} (taken by a writer it does not name`));
    expect(removed).toContainEqual(expect.stringMatching(/main\.lock \(its writer, process \d+ on .*, has exited\)/));

    // Every acknowledged save is in its draft's history, with its content.
    expect(acks.length).toBeGreaterThanOrEqual(ids.length);
    for (const id of ids) {
      const history = git("log", "-p", "--format=commit %H", `refs/heads/drafts/${id}`, "--", `notes/${id}.md`);
      const commits = history.split(/^commit /m).slice(1);
      for (const ack of acks.filter((a) => a.id === id)) {
        const landed = commits.filter((c) => c.includes(`\n+summary: Saved as ${ack.token}.\n`));
        expect(landed, `${id} ${ack.token}`).toHaveLength(1);
        expect(landed[0]).toContain(`\n+Written by ${ack.token}.\n`);
      }
    }
    expect(fsck(f.gitdir)).toBe("");
    // Measured 77 s at a load average of 17–20 on 2 cores, most of it loading the 24 servers (3 s each there).
  }, 180_000);
});
