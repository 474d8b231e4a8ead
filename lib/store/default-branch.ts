/**
 * The one branch name the store itself must know: a repository it creates or seeds starts on it,
 * and HEAD names it. Everything else the store is told by its callers (which refs to write, which
 * namespaces to mirror). The repository's layout (lib/working-copy/layout.ts) re-exports it as
 * MAIN_REF, so "main" is spelled once for the store and the domain alike, and the store still
 * imports nothing from above.
 */
export const DEFAULT_BRANCH_NAME = "main";
export const DEFAULT_BRANCH = "refs/heads/main";
