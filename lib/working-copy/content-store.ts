import path from "node:path";
import { config } from "@/lib/env";
import { parseNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { createContentStore, ensureContentRepo, openMirror, remoteConfig, type StoreOptions } from "@/lib/store";
import type { ContentStore as Store, Snapshot as StoreSnapshot, StoredNote as StoreNote } from "@/lib/store/types";
import { CONTENT_NAMESPACES } from "./layout";

/**
 * The app's content store: the git store (lib/store, which knows nothing about notes) opened with
 * what only the layers above know: the note parser and the repository's layout. Everything in the
 * app reads and writes the content repository through `getContentStore()`.
 * (docs/decisions/store-takes-the-parser.md)
 */

export type ContentStore = Store<Note>;
export type StoredNote = StoreNote<Note>;
export type Snapshot = StoreSnapshot<Note>;

/** The store over `dir`, reading notes with the app's parser: what tests, scripts and tools open. */
export function openContentStore(dir: string, options: Omit<StoreOptions<Note>, "parse"> = {}): ContentStore {
  return createContentStore(dir, { ...options, parse: parseNote });
}

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
    ? openMirror(gitdir, {
        // main moved back on the remote (a force-push) is refused, unless the site allows it (ALLOW_MAIN_REWIND=1).
        remote: { ...content, namespaces: CONTENT_NAMESPACES, mainRewind: config().allowMainRewind ? "follow" : "refuse" },
        seedDir,
        label: "content remote",
        pollSeconds,
        parse: parseNote,
      })
    : ensureContentRepo(gitdir, seedDir).then(() => openContentStore(gitdir));
  memo[KEY] = { gitdir, store };
  // A failed start (unwritable folder, bad seed) is retried on the next call, not remembered.
  store.catch(() => {
    if (memo[KEY]?.store === store) delete memo[KEY];
  });
  return store;
}

/**
 * The app's store for a write: with a git remote, first caught up with it (one listing, and a fetch
 * of whatever is new), so the write starts from the refs it is about to move as the remote holds
 * them, not as the last poll left them: a note another instance created a moment ago is there (not
 * a 404), and a 409's "theirs" is the newest version, not an older one. (Creating a note does not
 * ask: it claims its id by compare-and-swap from nothing, which a lost race already moves past, and
 * twenty creates at once over two instances each waiting for a sync timed out in e2e/remote.spec.ts.)
 */
export async function getStoreForWrite(): Promise<ContentStore> {
  const store = await getContentStore();
  if (store.remote) await store.remote.sync();
  return store;
}
