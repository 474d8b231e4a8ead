import { defineConfig } from "vitest/config";
import { fileURLToPath } from "node:url";

/**
 * The slow tail of the unit suite: the files that took 4.5 s or more each in a full run (vitest's
 * own per-file durations, node_modules/.vite/vitest/…/results.json, of CI's run on 2026-12-06):
 * 25 files, about two thirds of the suite's tests' time; 18 more from the fast project's own run
 * (below), so 43 of 171 files. `npm run test:fast` (the "fast" project)
 * leaves them out; `npx vitest run`, `npm test` and `.ci/run` run both projects, i.e. everything.
 * A file that grows slow goes here by name (not by renaming it).
 *
 * Most of the fast project's time is not its tests but loading each file's modules afresh: 321 of
 * the 533 s of a run one file at a time at load 6 (6 Dec) passed between one file's end and the
 * next's start, about 2 s a file. So `test:fast` (package.json) runs its files in worker threads
 * rather than a new process each, on every core (by default vitest leaves one core to itself, which
 * on two cores means one file at a time). A full run keeps vitest's defaults.
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
  // Session 15 (6 Dec): the fast project's own slowest files, 4.5 s or more in vitest's per-file
  // seconds of one `--project fast` run, one file at a time, at load 6 on 2 cores (a busy machine:
  // about twice a quiet one's figures); write-tools took 3.8 s there but 36 s in the next run.
  "app/api/studio/git-host.test.ts", // 14.6 s
  "app/api/studio/verified-review.test.ts", // 12.0 s
  "lib/content/phases.test.ts", // 9.9 s
  "lib/auth/sessions.test.ts", // 9.1 s
  "app/api/studio/main-events.test.ts", // 9.0 s
  "app/api/studio/main-events-remote.test.ts", // 8.4 s
  "app/api/studio/import/route.test.ts", // 8.0 s
  "lib/search/markup-free-text.test.ts", // 7.4 s
  "lib/search/postings.test.ts", // 7.1 s
  "app/api/studio/notes/[[]id]/publish/route.test.ts", // 7.1 s
  "scripts/user-remote.test.ts", // 6.8 s
  "lib/store/remote.test.ts", // 6.1 s
  "lib/agents/routes.test.ts", // 5.2 s
  "app/api/studio/notes/route.test.ts", // 5.1 s
  "lib/search/score.test.ts", // 5.0 s
  "lib/content/check-history.test.ts", // 4.9 s
  "app/api/studio/notes/[[]id]/assets/route.test.ts", // 4.9 s
  "app/agents/mcp/write-tools.test.ts", // 3.8 s
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
    // A property's stated maxLength is the size it is tested at (see the file).
    setupFiles: ["lib/testing/fast-check-sizes.ts"],
    // Two projects that split the suite in two, so running both (the default) runs every file once.
    projects: [
      { extends: true, test: { name: "fast", include: ALL, exclude: SLOW_TESTS } },
      { extends: true, test: { name: "slow", include: SLOW_TESTS } },
    ],
  },
});
