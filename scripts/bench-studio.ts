import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { freePort } from "./support/free-port";

/**
 * How the studio and the public pages feel in a browser, on the product as the README starts it
 * (`npm start` on a production build, a fresh data folder seeded with the archive's 21 notes).
 * Chromium (Debian's, as the e2e suite drives it), one warm-up, then BENCH_ROUNDS rounds (default
 * 5) of each measure in turn, interleaved; medians and the slowest round (the p95 of five), with
 * the load average before and after, since the machine is shared.
 *
 *   page measures: from navigation start until the page's own control can be used (there, and
 *   handled by React: a field rendered on the server is not usable before the page hydrates)
 *     sign-in    the form sent → the studio's list of notes shown, the header saying who is signed in
 *     editor     /studio/notes/AFN-016 → the Decision field, hydrated and editable, and the Save button
 *     review     /studio/notes/AFN-016/review → the revision's sections and the verdict form
 *     inbox      /studio/reviews → its three lists
 *   actions: from the click until the answer shows
 *     save       Save → "Saved just now"
 *     filter     Apply on home with a tag chosen → the filtered list's heading
 *     table      "Table" on home → the table
 *   size: the JavaScript the public home page loads, compressed as sent (Chromium's count of body
 *     bytes on the wire) and how many scripts.
 *
 *   npm run build && npm run bench:studio
 * Last line: JSON of every figure.
 */

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const ACCOUNT = { name: "bench-author", password: "bench author's long password" };
const REVIEWER = { name: "bench-reviewer", password: "bench reviewer's long password" };
const TARGETS = { page: 600, action: 300, homeJsKb: 40 };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const worst = (xs: number[]) => Math.max(...xs);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function startApp(dataDir: string, port: number) {
  // The README's command, with its defaults: every interface, PORT from the environment.
  const app = spawn("npm", ["start"], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SITE_URL: `http://127.0.0.1:${port}`, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: "ignore",
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  for (let until = Date.now() + 120_000; ; ) {
    const up = await fetch(`${url}/`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > until || app.exitCode !== null) throw new Error(`npm start on ${url} did not answer within 120 s`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return { url, stop: () => app.pid && app.exitCode === null && process.kill(-app.pid, "SIGTERM") };
}

/**
 * Resolves once React handles the elements `selectors` find (they carry React's props: hydrated).
 * Looked up anew on every frame: a field may be replaced by another (the Markdown editor).
 */
async function hydrated(page: Page, ...selectors: string[]): Promise<void> {
  // No named function inside: tsx would wrap it in a helper the page does not have.
  await page.waitForFunction(
    (all) =>
      all.every((selector) => {
        const el = document.querySelector(selector);
        return el !== null && Object.keys(el).some((k) => k.startsWith("__reactProps$"));
      }),
    selectors,
    { polling: "raf" },
  );
}

/** Milliseconds `work` takes. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await work();
  return performance.now() - t0;
}

type Pages = { author: Page; reviewer: Page };
type Measure = { name: string; kind: "page" | "action"; run: (pages: Pages, base: string) => Promise<number> };

const MEASURES: Measure[] = [
  {
    name: "sign-in",
    kind: "page",
    run: async ({ author: page }, base) => {
      await page.context().clearCookies();
      await page.goto(`${base}/sign-in?callbackUrl=%2Fstudio`);
      await page.getByLabel("Account").fill(ACCOUNT.name);
      await page.getByLabel("Password").fill(ACCOUNT.password);
      return timed(async () => {
        await page.getByRole("button", { name: "Sign in" }).click();
        await page.getByRole("table", { name: /^Published notes/ }).waitFor();
        await page.getByText(`Signed in as ${ACCOUNT.name}`).waitFor();
      });
    },
  },
  {
    name: "editor",
    kind: "page",
    run: ({ author: page }, base) =>
      timed(async () => {
        await page.goto(`${base}/studio/notes/AFN-016`, { waitUntil: "commit" });
        await page.getByLabel("Decision", { exact: true }).waitFor();
        await page.getByRole("button", { name: "Save", exact: true }).waitFor();
        // The field the Decision label names, and the form's submit button (Save); the field is
        // read-only until it has hydrated (components/studio/markdown-field.tsx).
        await hydrated(page, "#section-decision", "form button[type=submit]");
        await page.locator("#section-decision:not([readonly])").waitFor();
      }),
  },
  {
    name: "review",
    kind: "page",
    run: ({ reviewer: page }, base) =>
      timed(async () => {
        await page.goto(`${base}/studio/notes/AFN-016/review`, { waitUntil: "commit" });
        await page.getByRole("heading", { name: "Decision" }).first().waitFor();
      }),
  },
  {
    name: "inbox",
    kind: "page",
    run: ({ reviewer: page }, base) =>
      timed(async () => {
        await page.goto(`${base}/studio/reviews`, { waitUntil: "commit" });
        await page.getByRole("region", { name: /Waiting for any reviewer/ }).waitFor();
      }),
  },
  {
    name: "save",
    kind: "action",
    run: async ({ author: page }, base) => {
      await page.goto(`${base}/studio/notes/AFN-016`);
      const notes = page.getByLabel("Notes", { exact: true });
      await notes.fill(`Benchmark edit ${Date.now()}.`);
      return timed(async () => {
        await page.getByRole("button", { name: "Save", exact: true }).click();
        await page.getByText("Saved.", { exact: true }).waitFor();
      });
    },
  },
  {
    name: "filter",
    kind: "action",
    run: async ({ author: page }, base) => {
      await page.goto(`${base}/`);
      const form = page.getByRole("form", { name: "Filter and sort the records" });
      await form.getByLabel("Tag").selectOption({ label: "sparse attention" });
      return timed(async () => {
        await form.getByRole("button", { name: "Apply" }).click();
        await page.getByRole("heading", { level: 1, name: "Tag: sparse attention" }).waitFor();
      });
    },
  },
  {
    name: "table",
    kind: "action",
    run: async ({ author: page }, base) => {
      await page.goto(`${base}/`);
      return timed(async () => {
        await page.getByRole("navigation", { name: "How to show the records" }).getByRole("link", { name: "Table" }).click();
        await page.locator("table.records-table").waitFor();
      });
    },
  },
];

/** The scripts home loads: how many, and their bytes on the wire (compressed as sent). */
async function homeScripts(browser: Browser, base: string): Promise<{ scripts: number; kb: number }> {
  const page = await browser.newPage();
  const sizes: Promise<number>[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() === "script") sizes.push(request.sizes().then((s) => s.responseBodySize));
  });
  await page.goto(`${base}/`, { waitUntil: "networkidle" });
  const bytes = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
  await page.close();
  return { scripts: sizes.length, kb: Math.round(bytes / 102.4) / 10 };
}

async function main() {
  if (!fs.existsSync(path.join(process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID"))) throw new Error("no production build: run `npm run build` first");
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "fieldnotes-bench-studio-"));
  const dataDir = path.join(root, "data");
  const before = load();
  const app = await startApp(dataDir, await freePort());
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    for (const [account, role] of [
      [ACCOUNT, "author"],
      [REVIEWER, "reviewer"],
    ] as const) {
      execFileSync(path.resolve("node_modules/.bin/tsx"), ["scripts/user.ts", "add", account.name, "--role", role], {
        env: { ...process.env, DATA_DIR: dataDir },
        input: `${account.password}\n`,
        stdio: ["pipe", "ignore", "inherit"],
      });
    }
    const viewport = { width: 1280, height: 900 };
    const page = await (await browser.newContext({ viewport })).newPage();
    // The reviewer reads the review page and the inbox; signed in once, through the form.
    const reviewer = await (await browser.newContext({ viewport })).newPage();
    await reviewer.goto(`${app.url}/sign-in?callbackUrl=%2Fstudio`);
    await reviewer.getByLabel("Account").fill(REVIEWER.name);
    await reviewer.getByLabel("Password").fill(REVIEWER.password);
    await reviewer.getByRole("button", { name: "Sign in" }).click();
    await reviewer.waitForURL((u) => u.pathname === "/studio");
    const times = new Map<string, number[]>(MEASURES.map((m) => [m.name, []]));
    // Round 0 warms the server's caches and the browser's; it is not counted.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const m of MEASURES) {
        const ms = await m.run({ author: page, reviewer }, app.url);
        if (round > 0) times.get(m.name)?.push(ms);
      }
    }
    const js = await homeScripts(browser, app.url);
    const after = load();

    const rows = MEASURES.map((m) => {
      const xs = times.get(m.name) ?? [];
      const target = m.kind === "page" ? TARGETS.page : TARGETS.action;
      return { name: m.name, kind: m.kind, median: Math.round(median(xs)), worst: Math.round(worst(xs)), target, met: worst(xs) <= target };
    });
    console.log(
      `bench:studio, ${ROUNDS} rounds after a warm-up, Chromium ${browser.version()}, npm start on a production build; load average before ${before}, after ${after}`,
    );
    console.log("| measure | kind | median ms | slowest of 5 (p95) ms | target ms | met |");
    console.log("| --- | --- | --- | --- | --- | --- |");
    for (const r of rows) console.log(`| ${r.name} | ${r.kind} | ${r.median} | ${r.worst} | ≤ ${r.target} | ${r.met ? "yes" : "no"} |`);
    console.log(`| home JavaScript | size | ${js.kb} KB in ${js.scripts} scripts | | ≤ ${TARGETS.homeJsKb} KB | ${js.kb <= TARGETS.homeJsKb ? "yes" : "no"} |`);
    console.log(JSON.stringify({ rounds: ROUNDS, load: { before, after }, measures: rows, homeJs: js }));
  } finally {
    await browser.close();
    app.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
