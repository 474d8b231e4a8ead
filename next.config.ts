import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Lets two builds (or a build and a dev server) live side by side in one checkout.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // The git store reads the content repository from disk; keep these out of the bundle.
  serverExternalPackages: [
    "isomorphic-git",
    // One module instance of the profiler for core and for the credential scan, which switches it off.
    "@secretlint/core",
    "@secretlint/profiler",
    "@secretlint/secretlint-rule-preset-recommend",
  ],
  poweredByHeader: false,
  // The agent guide's canonical path is /agents/ (with the slash): proxy.ts redirects /agents to it
  // and strips the slash from every other path, as Next's own redirect would (lib/http/markdown-twin.ts).
  skipTrailingSlashRedirect: true,
  experimental: {
    // `next start` would otherwise require every route's module right after it listens, on the one
    // thread that answers requests: seconds at start before the first answer (issue 10). Each route
    // now loads on its first request, and a page kept on disk for main's commit needs none.
    preloadEntriesOnStart: false,
  },
};

export default nextConfig;
