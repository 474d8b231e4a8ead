import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The git store reads the content repository from disk; keep these out of the bundle.
  serverExternalPackages: ["isomorphic-git", "@secretlint/core", "@secretlint/secretlint-rule-preset-recommend"],
  poweredByHeader: false,
};

export default nextConfig;
