#!/usr/bin/env node
// The whole test suite in one command: installs what npm does not (Debian's Chromium), then runs
// the unit tests (vitest), one production build, the end-to-end tests (Playwright), the
// independent agent-docs checker (npm run check:agents, on the same build), the visual snapshots
// (npm run test:visual) and Lighthouse (npm run lighthouse, on the same build), and ends
// with one plain line of totals for CI: "N passed, N failed, N skipped".
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
process.chdir(root);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const results = path.join(root, "test-results");
fs.mkdirSync(results, { recursive: true });

function run(command, args, env = {}) {
  console.log(`\n$ ${command} ${args.join(" ")}`);
  const r = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  console.log(`Chromium is missing at ${CHROMIUM}: installing Debian's chromium package.`);
  const asRoot = process.getuid?.() === 0;
  const apt = (args) => (asRoot ? run("apt-get", args) : run("sudo", ["apt-get", ...args]));
  const env = { DEBIAN_FRONTEND: "noninteractive" };
  process.env.DEBIAN_FRONTEND = env.DEBIAN_FRONTEND;
  if (apt(["update", "-qq"]) !== 0 || apt(["install", "-y", "-qq", "chromium"]) !== 0) return false;
  return fs.existsSync(CHROMIUM);
}

// nginx serves the static export and caches in front of the app in e2e/export*.spec.ts.
const NGINX = process.env.NGINX_PATH || "/usr/sbin/nginx";
function ensureNginx() {
  if (fs.existsSync(NGINX)) return true;
  console.log(`nginx is missing at ${NGINX}: installing Debian's nginx package.`);
  const apt = (args) => (process.getuid?.() === 0 ? run("apt-get", args) : run("sudo", ["apt-get", ...args]));
  process.env.DEBIAN_FRONTEND = "noninteractive";
  if (apt(["update", "-qq"]) !== 0 || apt(["install", "-y", "-qq", "nginx"]) !== 0) return false;
  return fs.existsSync(NGINX);
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** What failed, by name: repeated just above the totals, since CI may keep only the end of the log. */
const failures = [];
let broken = false;

/** The names of a Playwright JSON report's unexpected tests, as "project › file:line › title". */
function playwrightFailures(report) {
  const names = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status === "unexpected") names.push(`${t.projectName} › ${spec.file}:${spec.line} › ${[...titles, spec.title].join(" › ")}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  // The top suites are the files, already named by spec.file.
  for (const suite of report.suites ?? []) walk(suite, []);
  return names;
}

if (!fs.existsSync(path.join(root, "node_modules", ".bin", "next"))) {
  if (run("npm", ["ci", "--no-audit", "--no-fund"]) !== 0) broken = true;
}

// Static checks: each counts as one test in the totals.
for (const [name, args] of [
  ["typecheck", ["tsc", "--noEmit"]],
  ["lint", ["eslint", "."]],
  ["format", ["prettier", "--check", "--log-level", "warn", "."]],
]) {
  if (run("npx", args) === 0) totals.passed += 1;
  else {
    console.error(`${name} failed`);
    failures.push(name);
    totals.failed += 1;
  }
}

// Unit tests.
const unitFile = path.join(results, "unit.json");
fs.rmSync(unitFile, { force: true });
const unitStatus = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${unitFile}`]);
const unit = readJson(unitFile);
if (unit) {
  totals.passed += unit.numPassedTests;
  totals.failed += unit.numFailedTests;
  totals.skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
  // A suite that fails to load counts as a failure even when no test in it ran.
  if (unitStatus !== 0 && unit.numFailedTests === 0) totals.failed += Math.max(1, unit.numFailedTestSuites);
  for (const file of unit.testResults ?? []) {
    const name = path.relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((a) => a.status === "failed");
    for (const a of failed) failures.push(`unit › ${name} › ${a.fullName}`);
    if (failed.length === 0 && file.status === "failed") failures.push(`unit › ${name} (did not load: ${(file.message ?? "").split("\n")[0]})`);
  }
} else {
  console.error("vitest wrote no report: counting the unit suite as failed");
  failures.push("unit (no report)");
  totals.failed += 1;
}

// End-to-end tests: one production build, then Playwright against `next start`.
const e2eFile = path.join(results, "e2e.json");
fs.rmSync(e2eFile, { force: true });
if (!ensureNginx()) {
  console.error("nginx could not be installed: the export tests will fail");
  failures.push("nginx (not installed)");
  totals.failed += 1;
}
if (!ensureChromium()) {
  console.error("Chromium could not be installed: the end-to-end suite cannot run");
  failures.push("chromium (not installed)");
  totals.failed += 1;
} else if (run("npx", ["next", "build"], { NEXT_TELEMETRY_DISABLED: "1" }) !== 0) {
  console.error("next build failed: the end-to-end suite cannot run");
  failures.push("next build");
  totals.failed += 1;
} else {
  const e2eStatus = run("npx", ["playwright", "test"], { CI: process.env.CI ?? "1" });
  const e2e = readJson(e2eFile);
  if (e2e?.stats) {
    totals.passed += e2e.stats.expected + e2e.stats.flaky;
    totals.failed += e2e.stats.unexpected;
    totals.skipped += e2e.stats.skipped;
    if (e2eStatus !== 0 && e2e.stats.unexpected === 0) totals.failed += 1; // e.g. the web server never came up
    failures.push(...playwrightFailures(e2e).map((n) => `e2e › ${n}`));
    if (e2eStatus !== 0 && e2e.stats.unexpected === 0) failures.push(`e2e (exit ${e2eStatus}, no test failed)`);
  } else {
    console.error("Playwright wrote no report: counting the end-to-end suite as failed");
    failures.push("e2e (no report)");
    totals.failed += 1;
  }

  // The independent checker (afdocs) against its own `npm start` of the same build, then (--nginx)
  // a shorter pass behind deploy/nginx-cache.conf: each of its checks counts as one test; a warning
  // counts as a failure, since every check must pass.
  const check = spawnSync("node", ["scripts/check-agents.mjs", "--nginx"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  process.stdout.write(check.stdout ?? "");
  const last = (check.stdout ?? "").trim().split("\n").at(-1) ?? "";
  let agents = null;
  try {
    agents = JSON.parse(last);
  } catch {
    agents = null;
  }
  if (agents && typeof agents.passed === "number") {
    totals.passed += agents.passed;
    // A warning counts as a failure: afdocs passes it with advice, but this archive meets every check.
    totals.failed += agents.failed + (agents.errors ?? 0) + agents.warned;
    totals.skipped += agents.skipped;
    if (agents.warned > 0) console.log(`check:agents: ${agents.warned} afdocs warning(s), counted as failed (see the list above)`);
    const bad = agents.failed + (agents.errors ?? 0) + agents.warned;
    if (bad > 0) failures.push(`check:agents › ${bad} check(s) failed or warned (FAIL/WARN lines above)`);
  } else {
    console.error("check:agents wrote no totals: counting it as failed");
    failures.push("check:agents (no totals)");
    totals.failed += 1;
  }

  // The visual snapshots, in a Playwright run of their own over a fresh data folder (E2E_VISUAL=1,
  // see playwright.config.ts), compared with the committed baselines in e2e/visual.spec.ts-snapshots/.
  const visualFile = path.join(results, "visual.json");
  fs.rmSync(visualFile, { force: true });
  const visualStatus = run("npx", ["playwright", "test"], { CI: process.env.CI ?? "1", E2E_VISUAL: "1" });
  const visual = readJson(visualFile);
  if (visual?.stats) {
    totals.passed += visual.stats.expected + visual.stats.flaky;
    totals.failed += visual.stats.unexpected;
    totals.skipped += visual.stats.skipped;
    if (visualStatus !== 0 && visual.stats.unexpected === 0) totals.failed += 1;
    failures.push(...playwrightFailures(visual).map((n) => `visual › ${n}`));
    if (visualStatus !== 0 && visual.stats.unexpected === 0) failures.push(`visual (exit ${visualStatus}, no test failed)`);
  } else {
    console.error("The visual run wrote no report: counting it as failed");
    failures.push("visual (no report)");
    totals.failed += 1;
  }

  // Lighthouse (pinned) on home, a note and search, against its own `next start` of the same build:
  // each required category score of 100 counts as one test (scripts/lighthouse.mjs).
  const lh = spawnSync("node", ["scripts/lighthouse.mjs"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 });
  process.stdout.write(lh.stdout ?? "");
  let scores = null;
  try {
    scores = JSON.parse((lh.stdout ?? "").trim().split("\n").at(-1) ?? "");
  } catch {
    scores = null;
  }
  if (scores && typeof scores.passed === "number") {
    totals.passed += scores.passed;
    totals.failed += scores.failed;
    totals.skipped += scores.skipped ?? 0;
    if (scores.failed > 0) failures.push(`lighthouse › ${scores.failed} score(s) under the bar (FAIL lines above)`);
  } else {
    console.error("lighthouse wrote no totals: counting it as failed");
    failures.push("lighthouse (no totals)");
    totals.failed += 1;
  }
}

if (broken) totals.failed += 1;
if (failures.length > 0) console.log(`\nFailed (${failures.length}):\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
