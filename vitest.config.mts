import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * The slow tail of the unit suite: the files that took 4.5 s or more each in a full run (vitest's
 * own per-file durations, node_modules/.vite/vitest/…/results.json, of CI's run on 2026-12-06):
 * 25 of 157 files, about two thirds of the suite's time. `npm run test:fast` (the "fast" project)
 * leaves them out; `npx vitest run`, `npm test` and `.ci/run` run both projects, i.e. everything.
 * A file that grows slow goes here by name (not by renaming it).
 */
export const SLOW_TESTS = [
  "lib/store/save-crash.test.ts",
  "scripts/user.test.ts",
  "app/api/studio/webhooks/route.test.ts",
  "lib/render/sections.test.ts",
  "lib/search/worker.test.ts",
  "lib/auth/rate-limit.test.ts",
  "lib/notes/markdown.test.ts",
  "scripts/lint-rules.test.ts",
  "lib/store/ref-lock.test.ts",
  "app/api/studio/fuzz.test.ts",
  "lib/render/fuzz.test.ts",
  "app/diagram-stalls.test.ts",
  "lib/read-model/persist.test.ts",
  "lib/store/commit-cas.test.ts",
  "app/api/studio/notes/[[]id]/assets/hostile.test.ts",
  "lib/content/check.test.ts",
  "lib/auth/accounts-remote.test.ts",
  "lib/rules/archive-policy-profiler.test.ts",
  "app/api/studio/agreement.test.ts",
  "app/api/studio/notifications-remote.test.ts",
  "app/api/studio/remote.test.ts",
  "lib/agents/index-entry.test.ts",
  "lib/import/import.test.ts",
  "lib/store/store.test.ts",
  "lib/store/mirror-empty-remote.test.ts",
];

const ALL = ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL(".", import.meta.url)),
      // Tests run server modules in node, where server-only's default export throws (it is meant to
      // fail a browser bundle); its react-server file is the empty module Next uses on the server.
      "server-only": fileURLToPath(new URL("node_modules/server-only/empty.js", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two projects that split the suite in two, so running both (the default) runs every file once.
    projects: [
      { extends: true, test: { name: "fast", include: ALL, exclude: SLOW_TESTS } },
      { extends: true, test: { name: "slow", include: SLOW_TESTS } },
    ],
  },
});
