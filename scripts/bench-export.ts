import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { freePort, startNginx, type RunningNginx } from "../e2e/support/nginx";

/**
 * The home page three ways, on one fresh seeded archive and one production build (NEXT_DIST_DIR,
 * default .next): nginx serving `npm run export`'s files (deploy/nginx-static.conf), the app itself
 * (`next start`), and nginx as a cache in front of that app (deploy/nginx-cache.conf). req/s and
 * p99 in interleaved rounds (autocannon, 16 connections, gzip accepted), medians, each as a ratio
 * of the app's; the load average at start and end, since the machine is shared. Last line: JSON.
 *
 *   npm run build && npm run bench:export
 *   BENCH_DURATION=3 BENCH_ROUNDS=1 npm run bench:export   (a quick look)
 */

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 16;
const DIST = process.env.NEXT_DIST_DIR ?? ".next";

const require = createRequire(import.meta.url);
type AutocannonResult = { requests: { average: number; total: number }; latency: { p99: number }; non2xx: number; errors: number; timeouts: number };
const autocannon = require("autocannon") as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function load(url: string): Promise<AutocannonResult> {
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": "gzip, deflate, br", accept: "text/html" } });
  // A wrong answer stops the run; a connection error or two on a loaded machine is counted, not fatal.
  const failed = r.errors + r.timeouts;
  if (r.non2xx > 0 || failed > r.requests.total / 100)
    throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts of ${r.requests.total}`);
  if (failed > 0) console.log(`  (${url}: ${failed} connection errors or timeouts of ${r.requests.total} requests)`);
  return r;
}

async function main() {
  if (!fs.existsSync(path.join(DIST, "BUILD_ID"))) throw new Error(`no production build in ${DIST}: run \`next build\` (with NEXT_DIST_DIR=${DIST}) first`);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-bench-export-"));
  fs.chmodSync(root, 0o755);
  const dataDir = path.join(root, "data");
  const out = path.join(root, "site");
  const stops: (() => Promise<void> | void)[] = [];
  const load0 = os.loadavg()[0] ?? 0;
  try {
    const appPort = await freePort();
    const app = spawn(path.resolve("node_modules/.bin/next"), ["start", "-p", String(appPort), "-H", "127.0.0.1", "--keepAliveTimeout", "65000"], {
      env: { ...process.env, DATA_DIR: dataDir, SITE_URL: `http://127.0.0.1:${appPort}`, NEXT_TELEMETRY_DISABLED: "1" },
      stdio: "ignore",
      detached: true,
    });
    stops.push(() => {
      if (app.exitCode === null && app.pid) process.kill(-app.pid, "SIGTERM");
    });
    const appUrl = `http://127.0.0.1:${appPort}`;
    for (let until = Date.now() + 120_000; ; ) {
      if (
        await fetch(`${appUrl}/`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      if (Date.now() > until || app.exitCode !== null) throw new Error(`next start on ${appUrl} did not answer within 120 s`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const staticPort = await freePort();
    // The export reads main of the content the app seeded, through a server of its own.
    execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/export.ts", out], {
      env: { ...process.env, DATA_DIR: dataDir, SITE_URL: `http://127.0.0.1:${staticPort}` },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const staticSite: RunningNginx = await startNginx("nginx-static.conf", { FIELD_NOTES_ROOT: out }, staticPort);
    stops.push(staticSite.stop);

    const cache = await startNginx("nginx-cache.conf", { FIELD_NOTES_UPSTREAM: `127.0.0.1:${appPort}`, FIELD_NOTES_CACHE: path.join(root, "cache") });
    stops.push(cache.stop);

    const targets = [
      { name: "nginx, exported files", url: `${staticSite.url}/` },
      { name: "app (next start)", url: `${appUrl}/` },
      { name: "nginx cache → app", url: `${cache.url}/` },
    ];
    // Warm: the app's page cache holds the page, nginx's cache has stored it.
    for (const t of targets) for (let i = 0; i < 3; i++) await fetch(t.url, { headers: { accept: "text/html" } });
    const rps = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    const p99 = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const t of targets) {
        const r = await load(t.url);
        rps.get(t.name)?.push(r.requests.average);
        p99.get(t.name)?.push(r.latency.p99);
        console.log(`round ${round}: ${t.name}: ${r.requests.average.toFixed(0)} req/s, p99 ${r.latency.p99} ms`);
      }
    }
    const appRps = median(rps.get("app (next start)") ?? []);
    const rows = targets.map((t) => ({
      "home page /": t.name,
      "req/s": Math.round(median(rps.get(t.name) ?? [])),
      "p99 ms": median(p99.get(t.name) ?? []),
      "× app": Number((median(rps.get(t.name) ?? []) / appRps).toFixed(1)),
    }));
    const loadEnd = os.loadavg();
    console.log(
      `\n${os.availableParallelism()} cores; node ${process.version}; autocannon -c ${CONNECTIONS} -d ${DURATION}, ${ROUNDS} interleaved rounds, medians; load average at start ${load0.toFixed(1)}, at end ${loadEnd.map((l) => l.toFixed(1)).join(" ")}`,
    );
    console.table(rows);
    console.log(
      JSON.stringify({
        static_rps: rows[0]?.["req/s"],
        app_rps: rows[1]?.["req/s"],
        cache_rps: rows[2]?.["req/s"],
        static_ratio: rows[0]?.["× app"],
        cache_ratio: rows[2]?.["× app"],
        cores: os.availableParallelism(),
        load_average: Number((loadEnd[0] ?? 0).toFixed(1)),
      }),
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`bench:export failed: ${(e as Error).message}`);
  process.exit(1);
});
