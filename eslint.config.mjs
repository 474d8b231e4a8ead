import next from "eslint-config-next";
import { filesOf, importsOf, readLayers } from "./scripts/layers.mjs";

/**
 * What each layer may import is ARCHITECTURE.md's table ("The layers, bottom up"), read here as
 * data: an import the table does not allow fails the lint, so the two cannot disagree.
 */
const io = ["fs", "fs/*", "node:fs", "node:fs/*", "child_process", "node:child_process", "isomorphic-git", "isomorphic-git/*"];
/** Layers that run in the browser, or are shared with it: no I/O. */
const PURE = new Set(["words", "browser", "components"]);
const layers = readLayers();
const layerRules = layers.map((layer) => {
  const patterns = layers
    .filter((other) => other !== layer && !layer.mayImport.includes(other.name))
    .map((other) => ({
      group: importsOf(other),
      message: `${layer.name} may not import ${other.name}: it may import ${layer.mayImport.join(", ") || "no other layer"} (ARCHITECTURE.md, "The layers, bottom up").`,
      allowTypeImports: true,
    }));
  if (PURE.has(layer.name))
    patterns.push({ group: io, message: `${layer.name} runs in the browser or is shared with it: no I/O here.`, allowTypeImports: true });
  return {
    files: filesOf(layer),
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/*.script.ts", "lib/store/testing.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": patterns.length ? ["error", { patterns }] : "off" },
  };
});

/** The content repository's ref names, spelled once (lib/working-copy/layout.ts; the store's default branch in lib/store/default-branch.ts). */
const refName = "/^refs\\/(heads\\/(main$|drafts\\/)|reviews\\/|approved\\/|announced\\/)/";
const refMessage = "Ref names come from lib/working-copy/layout.ts (MAIN_REF, draftRef, reviewRef, approvedRef, ANNOUNCED_MAIN_REF), not a literal.";

const config = [
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  ...next,
  // No import cycles anywhere: a cycle is two modules that cannot be read, tested or moved apart.
  { files: ["**/*.ts", "**/*.tsx"], rules: { "import/no-cycle": ["error", { ignoreExternal: true }] } },
  ...layerRules,
  {
    // One layout: a ref name typed anywhere else drifts from the one the rest of the app uses.
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: ["lib/working-copy/layout.ts", "lib/store/default-branch.ts", "**/*.test.ts", "e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `Literal[value=${refName}]`, message: refMessage },
        { selector: `TemplateElement[value.raw=${refName}]`, message: refMessage },
        {
          // With a locale or options, each call builds a collator: sorting 10,000 ids so took 0.5 s.
          selector: "CallExpression[callee.property.name='localeCompare'][arguments.length>1]",
          message:
            "Compare with a collator made once (new Intl.Collator(…).compare; compareIds in lib/notes/schema.ts), not localeCompare with a locale or options.",
        },
      ],
    },
  },
  {
    // Search owns its index (lib/search/term-index.ts, docs/decisions/search-own-index.md): MiniSearch
    // is only the reference that tests and bench:search compare the ranking with.
    files: ["**/*.ts", "**/*.tsx"],
    ignores: ["lib/testing/**", "**/*.test.ts", "scripts/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "minisearch", message: "Search runs on its own index (lib/search/term-index.ts); MiniSearch is a dev dependency for tests." }] },
      ],
    },
  },
  {
    // Public pages load as documents from the page cache, so a link to one is a plain <a> (nothing
    // to hydrate or prefetch): docs/decisions/public-links-are-plain-links.md. The rule assumes
    // Next's client-side navigation is wanted for every link to "/"; the studio keeps <Link>.
    files: ["app/(public)/**/*.tsx", "components/*.tsx"],
    rules: { "@next/next/no-html-link-for-pages": "off" },
  },
];

export default config;
