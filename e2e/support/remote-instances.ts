import { execFile, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freePort as freePortBeside } from "../../scripts/support/free-port";

/**
 * App instances for the remote tests: `next start` of the same production build the other specs
 * use (NEXT_DIST_DIR is inherited), each on a free loopback port with its own DATA_DIR, all on
 * one content remote and one accounts remote. Each runs in its own process group, stopped whole.
 */

export type Instance = { name: string; url: string; dataDir: string; env: Record<string, string>; stop: () => Promise<void> };

/** A loopback port nobody listens on now, never the main e2e server's. */
export const freePort = () => freePortBeside(Number(process.env.E2E_PORT || 3100));

/**
 * What every instance of a two-instance site shares: the content and accounts remotes on `origin`
 * (`<origin>/content.git`, `<origin>/accounts.git`) with their credentials, the poll interval and
 * one session secret (a cookie from one instance is read by the other).
 */
export function sharedRemoteEnv(origin: string, credentials: { user: string; password: string }, pollSeconds: number): Record<string, string> {
  return {
    CONTENT_REMOTE: `${origin}/content.git`,
    ACCOUNTS_REMOTE: `${origin}/accounts.git`,
    CONTENT_REMOTE_USER: credentials.user,
    CONTENT_REMOTE_TOKEN: credentials.password,
    CONTENT_POLL_SECONDS: String(pollSeconds),
    NEXTAUTH_SECRET: "one-session-secret-shared-by-every-instance",
  };
}

export async function startInstance(name: string, dataDir: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  fs.mkdirSync(dataDir, { recursive: true });
  const log = fs.openSync(path.join(dataDir, `${name}.log`), "a");
  const fullEnv = { ...env, DATA_DIR: dataDir, NEXT_TELEMETRY_DISABLED: "1" };
  const child: ChildProcess = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"], {
    env: { ...process.env, ...fullEnv },
    stdio: ["ignore", log, log],
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        /* already gone */
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          /* already gone */
        }
      }
    }
    fs.closeSync(log);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}); see ${path.join(dataDir, `${name}.log`)}`);
    try {
      const r = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) });
      if (r.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not answer on ${url} within 120 s; see its log in ${dataDir}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  return { name, url, dataDir, env: fullEnv, stop };
}

/**
 * `npm run user -- …` with an instance's environment (its DATA_DIR and the accounts remote). Never
 * synchronous: the git server it talks to runs in this same process.
 */
export function userCli(instance: { env: Record<string, string> }, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      path.resolve("node_modules/.bin/tsx"),
      ["scripts/user.ts", ...args],
      { env: { ...process.env, ...instance.env }, encoding: "utf8", timeout: 60_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`npm run user -- ${args[0]} failed: ${stderr || error.message}`)) : resolve(stdout.trim())),
    );
    child.stdin?.end(input ?? "");
  });
}
