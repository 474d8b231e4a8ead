// What the independent checkers (scripts/check-agents.mjs, scripts/lighthouse.mjs) share: a pinned
// install of their tools outside the app's dependencies, and a production server of their own over a
// fresh content repository.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..", "..");

/** The value after a command-line flag (`--url x` → "x"), or undefined. */
export function arg(name) {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/**
 * Installs pinned npm packages into `<tmp>/<folder>` once and answers the folder; later runs reuse
 * it. The install goes next to the final folder and is moved in whole, so a broken install is never
 * reused. `ready` names a file whose presence means the folder is complete.
 */
export function installPinned(folder, packages, ready) {
  const dir = path.join(os.tmpdir(), folder);
  if (ready.every((file) => fs.existsSync(path.join(dir, file)))) return dir;
  const staging = `${dir}.${process.pid}`;
  fs.mkdirSync(staging, { recursive: true });
  console.log(`Installing ${packages.join(", ")} into ${dir}`);
  const r = spawnSync("npm", ["install", "--prefix", staging, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", ...packages], {
    stdio: "inherit",
  });
  if (r.status !== 0) throw new Error(`npm install of ${packages.join(", ")} failed (exit ${r.status})`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  return dir;
}

async function waitFor(url, server, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode} before answering`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer 200 within ${ms / 1000} s`);
}

/**
 * Starts the production build (NEXT_DIST_DIR, default .next) as the README does, `npm start` (every
 * interface, PORT), over a fresh data folder seeded with the archive's notes, on the port
 * `portVariable` names (else `defaultPort`); answers `{ url, stop }` once `/` answers 200. `stop`
 * ends the server and removes its data. (A `next start -H 127.0.0.1` of our own hid issue #27:
 * docs/decisions/twin-route-path.md.) `siteUrl` is its SITE_URL when readers reach it through
 * something in front (nginx); else its own URL.
 */
export async function startServer(portVariable, defaultPort, siteUrl) {
  const port = Number(process.env[portVariable] || defaultPort);
  const url = `http://127.0.0.1:${port}`;
  // A server already on the port would answer in place of ours and the check would grade the wrong build.
  const busy = await fetch(`${url}/`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop what listens there or set ${portVariable}`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-checker-data-"));
  const server = spawn("npm", ["start"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SITE_URL: siteUrl ?? url, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "ignore", "inherit"],
    // Its own process group, so stopping it stops any worker it started too.
    detached: true,
  });
  const stop = () => {
    if (server.exitCode === null) {
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        server.kill("SIGTERM");
      }
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${url}/`, server);
  } catch (e) {
    stop();
    throw e;
  }
  return { url, stop };
}

/**
 * deploy/nginx-cache.conf as shipped, in front of the app at `upstream` (host:port), on a free
 * loopback port (scripts/support/nginx-front.ts, through e2e/support/nginx.ts as the e2e tests run
 * it); answers `{ url, stop }` once nginx listens. Needs Debian's nginx (npm test installs it).
 */
export async function startNginxFront(upstream) {
  const child = spawn(path.join(root, "node_modules", ".bin", "tsx"), [path.join(root, "scripts", "support", "nginx-front.ts"), upstream], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
    detached: true,
  });
  const stop = () => {
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        child.kill("SIGTERM");
      }
    }
  };
  const url = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("nginx did not start within 30 s")), 30_000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const m = /^listening (\S+)$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`nginx-front exited with ${code}`));
    });
  }).catch((e) => {
    stop();
    throw e;
  });
  return { url, stop };
}
