import path from "node:path";
import { config } from "@/lib/env";
import { ensureContentRepo } from "./seed";
import { createContentStore } from "./store";
import type { ContentStore } from "./types";

/**
 * The content store: the only module that reads or writes the git repository (see ./types for the
 * contract). `getContentStore()` is what the app uses; the rest is for tests, scripts and tools.
 */

export * from "./api";

const KEY = Symbol.for("field-notes.content-store");
type Memo = { gitdir: string; store: Promise<ContentStore> };
// On globalThis so that a dev server's module reloads keep one store (and its caches) per process.
const memo = globalThis as typeof globalThis & { [KEY]?: Memo };

/** The app's store: the repository at config().contentRepo, created and seeded from ./content on first use. */
export function getContentStore(): Promise<ContentStore> {
  const gitdir = config().contentRepo;
  const current = memo[KEY];
  if (current && current.gitdir === gitdir) return current.store;
  const store = ensureContentRepo(gitdir, path.resolve(process.cwd(), "content")).then(() => createContentStore(gitdir));
  memo[KEY] = { gitdir, store };
  // A failed start (unwritable folder, bad seed) is retried on the next call, not remembered.
  store.catch(() => {
    if (memo[KEY]?.store === store) delete memo[KEY];
  });
  return store;
}
