import path from "node:path";
import { config } from "@/lib/env";
import { openMirror } from "./mirror";
import { remoteConfig } from "./remote-config";
import { ensureContentRepo } from "./seed";
import { createContentStore } from "./store";
import type { ContentStore } from "./types";

/**
 * The content store: the only module that reads or writes the git repository (see ./types for the
 * contract). `getContentStore()` is what the app uses; the rest is for tests, scripts and tools.
 */

export * from "./api";
export { openMirror } from "./mirror";
export { remoteConfig, parseRemoteConfig, resetRemoteConfig, type RemoteConfig } from "./remote-config";

/** What travels with the content: branches (main, drafts), review records, kept approvals. */
export const CONTENT_NAMESPACES = ["refs/heads/", "refs/reviews/", "refs/approved/"];

const KEY = Symbol.for("field-notes.content-store");
type Memo = { gitdir: string; store: Promise<ContentStore> };
// On globalThis so that a dev server's module reloads keep one store (and its caches) per process.
const memo = globalThis as typeof globalThis & { [KEY]?: Memo };

/** The app's store: the repository at config().contentRepo, created and seeded from ./content on first use. */
export function getContentStore(): Promise<ContentStore> {
  const gitdir = config().contentRepo;
  const current = memo[KEY];
  if (current && current.gitdir === gitdir) return current.store;
  const seedDir = path.resolve(process.cwd(), "content");
  const { content, pollSeconds } = remoteConfig();
  // With CONTENT_REMOTE the local repository mirrors the remote, and every write reaches the remote
  // first. Accounts never travel with the content: they have a repository of their own.
  const store = content
    ? openMirror(gitdir, { remote: { ...content, namespaces: CONTENT_NAMESPACES }, seedDir, label: "content remote", pollSeconds })
    : ensureContentRepo(gitdir, seedDir).then(() => createContentStore(gitdir));
  memo[KEY] = { gitdir, store };
  // A failed start (unwritable folder, bad seed) is retried on the next call, not remembered.
  store.catch(() => {
    if (memo[KEY]?.store === store) delete memo[KEY];
  });
  return store;
}
