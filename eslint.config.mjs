import next from "eslint-config-next";

/** What a layer may not import: the floors of the house (ARCHITECTURE.md, "The layers"). */
const io = ["fs", "fs/*", "node:fs", "node:fs/*", "child_process", "node:child_process", "isomorphic-git", "isomorphic-git/*"];
const server = ["@/lib/store", "@/lib/store/*", "@/lib/content/*", "@/lib/studio/*", "@/lib/review/*", "@/lib/working-copy/*"];
const forbid = (group, message) => ["error", { patterns: [{ group, message, allowTypeImports: true }] }];

/** The content repository's ref names, spelled once (lib/working-copy/layout.ts; the store's default branch in lib/store/default-branch.ts). */
const refName = "/^refs\\/(heads\\/(main$|drafts\\/)|reviews\\/|approved\\/)/";
const refMessage = "Ref names come from lib/working-copy/layout.ts (MAIN_REF, draftRef, reviewRef, approvedRef), not a literal.";

const config = [
  { ignores: [".next/**", ".next-*/**", "node_modules/**", ".data/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  ...next,
  // No import cycles anywhere: a cycle is two modules that cannot be read, tested or moved apart.
  { files: ["**/*.ts", "**/*.tsx"], rules: { "import/no-cycle": ["error", { ignoreExternal: true }] } },
  {
    // The rules are pure: the browser, the server, the CLI and the agent endpoints import them alike.
    files: ["lib/rules/**", "lib/notes/**", "lib/phases/**", "lib/validations/**"],
    ignores: ["**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": forbid(
        [...io, ...server],
        "lib/rules, lib/notes, lib/phases and lib/validations are pure: no I/O, no store, no domain services.",
      ),
    },
  },
  {
    // The browser never reaches the repository.
    files: ["components/**", "lib/queries/**", "lib/hooks/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": forbid(
        [...io, ...server],
        "Browser code talks to the server over the API, never to the store or the domain services.",
      ),
    },
  },
  {
    // One layout: a ref name typed anywhere else drifts from the one the rest of the app uses.
    files: ["**/*.ts", "**/*.tsx", "**/*.mjs"],
    ignores: ["lib/working-copy/layout.ts", "lib/store/default-branch.ts", "**/*.test.ts", "e2e/**"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: `Literal[value=${refName}]`, message: refMessage },
        { selector: `TemplateElement[value.raw=${refName}]`, message: refMessage },
      ],
    },
  },
  {
    // The store is the bottom floor: it knows git, not notes, the studio, reviews, pages or agents
    // (the note parser is handed to it: lib/working-copy/content-store.ts).
    files: ["lib/store/**"],
    ignores: ["**/*.test.ts", "**/*.script.ts", "lib/store/testing.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": forbid(
        [
          "@/lib/notes",
          "@/lib/notes/*",
          "@/lib/phases/*",
          "@/lib/validations/*",
          "@/lib/auth/*",
          "@/lib/api/*",
          "@/lib/http/*",
          "@/lib/content/*",
          "@/lib/studio/*",
          "@/lib/review/*",
          "@/lib/working-copy/*",
          "@/lib/agents/*",
          "@/lib/public/*",
          "@/lib/rules/*",
          "@/lib/search/*",
          "@/app/*",
        ],
        "lib/store is the bottom layer: nothing above it may be imported here.",
      ),
    },
  },
];

export default config;
