import { defineConfig } from "@playwright/test";
import path from "node:path";

/**
 * End-to-end tests in Debian's Chromium (never a downloaded browser), against a production server
 * on a fresh data folder. The folder is chosen once here and inherited by the workers through the
 * environment, so tests can reach the same content repository with plain git.
 */
const port = Number(process.env.E2E_PORT || 3100);
process.env.E2E_DATA_DIR ||= path.resolve(".data", `e2e-${Date.now()}-${process.pid}`);
process.env.E2E_BASE_URL ||= `http://127.0.0.1:${port}`;
const dataDir = process.env.E2E_DATA_DIR;
const server = process.env.E2E_SERVER === "dev" ? "dev" : "start";
// `npm run test:visual` (E2E_VISUAL=1) runs only the visual snapshots, in a run of their own: its
// server's data folder is written by nothing but e2e/visual.setup.ts, while the other specs publish
// notes and close phases that would change the pages under the snapshots. A plain run skips them.
const visual = process.env.E2E_VISUAL === "1";
const VISUAL_FILES = /visual\.(spec|setup|figures\.spec)\.ts$/;

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: visual ? "test-results/visual.json" : "test-results/e2e.json" }]],
  // Each run empties its output folder first; the visual run keeps to its own, so it never deletes the other's report.
  outputDir: visual ? "test-results/visual" : "test-results",
  use: {
    baseURL: process.env.E2E_BASE_URL,
    trace: "off",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: visual
    ? [
        { name: "visual-setup", testMatch: /visual\.setup\.ts$/, use: { browserName: "chromium" } },
        {
          name: "visual",
          testMatch: /visual\.spec\.ts$/,
          dependencies: ["visual-setup"],
          // Baselines beside the spec, one file per shot, no platform suffix: the only browser is Debian's Chromium.
          snapshotPathTemplate: "{testDir}/{testFileName}-snapshots/{arg}{ext}",
          use: { browserName: "chromium" },
        },
        {
          // Publishes a note with a figure, which the home page and the studio list would show: after every other shot.
          name: "visual-figures",
          testMatch: /visual\.figures\.spec\.ts$/,
          dependencies: ["visual"],
          snapshotPathTemplate: "{testDir}/visual.spec.ts-snapshots/{arg}{ext}",
          use: { browserName: "chromium" },
        },
      ]
    : [{ name: "chromium", testIgnore: VISUAL_FILES, use: { browserName: "chromium" } }],
  webServer: {
    // The product as the README starts it: `npm start` (every interface, PORT, idle connections kept
    // 65 s), not a `next start` of our own. Started with `-H 127.0.0.1`, Next sends every proxy
    // rewrite back to itself over HTTP, which hid the twins' 404s (docs/decisions/twin-route-path.md).
    command: server === "start" ? "npm start" : `npx next dev -p ${port} -H 127.0.0.1`,
    url: `${process.env.E2E_BASE_URL}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(port), DATA_DIR: dataDir, SITE_URL: process.env.E2E_BASE_URL, NEXT_TELEMETRY_DISABLED: "1" },
    stdout: "pipe",
    stderr: "pipe",
  },
});
