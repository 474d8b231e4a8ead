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

export default defineConfig({
  testDir: "e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["json", { outputFile: "test-results/e2e.json" }]] : [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
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
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: {
    command: `npx next ${server} -p ${port} -H 127.0.0.1`,
    url: `${process.env.E2E_BASE_URL}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { DATA_DIR: dataDir, SITE_URL: process.env.E2E_BASE_URL, NEXT_TELEMETRY_DISABLED: "1" },
    stdout: "pipe",
    stderr: "pipe",
  },
});
