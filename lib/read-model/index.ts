import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/env";
import type { Oid } from "@/lib/store/types";
import { appBuild, folderFor, readPersisted, writePersisted, type Head, type NoteLine, type ParsedFile, type Persisted } from "./persist";
import { readPage, writePage, type StoredPage } from "./pages";
import { readSide } from "./read-side";

/**
 * When the persisted read model (./persist.ts) is read and written: read once per process before
 * the first published view is built, and written a moment after each new view, off the request
 * path (a write in progress when main moves again is followed by one more, for the newest view).
 * One state per process, in the read side's (./read-side.ts).
 */

export type { Head, NoteLine, ParsedFile } from "./persist";
export type { StoredPage } from "./pages";

export type PersistState = {
  /** The build the folder is keyed by; undefined: the app's own (appBuild()). */
  build: string | null | undefined;
  /** Blobs the notes file holds (read at start, then added by each write). */
  written: Set<Oid>;
  next: (() => Promise<{ notes: NoteLine[]; head: Head }>) | null;
  running: Promise<void> | null;
};
const state = (): PersistState => (readSide().persist ??= { build: undefined, written: new Set(), next: null, running: null });

// Commits often come in bursts (a push, a review's several writes): the write waits for a quiet moment.
const SETTLE_MS = 250;

function folder(): string | null {
  const s = state();
  return folderFor(config().dataDir, s.build === undefined ? appBuild() : s.build);
}

/** What the previous run of this build persisted, its parse results handed to the store; null when there is none. */
export async function restorePersisted(store: { seedParsed(entries: Iterable<readonly [Oid, ParsedFile]>): void }): Promise<Persisted | null> {
  const dir = folder();
  if (!dir) return null;
  const persisted = await readPersisted(dir);
  state().written = new Set(persisted.notes.keys());
  store.seedParsed([...persisted.notes.values()].map((n) => [n.blob, n.parsed] as const));
  return persisted;
}

/** Whether a previous run of this build left a read model to start from (its head). */
export function hasPersisted(): boolean {
  const dir = folder();
  return dir !== null && fs.existsSync(path.join(dir, "head.json"));
}

/** Where the search worker keeps its index between starts (lib/search/saved-index.ts); null when nothing is persisted. */
export function searchIndexFile(): string | null {
  const dir = folder();
  return dir ? path.join(dir, "search-index.json") : null;
}

/** A page the page cache kept for `commit` in a previous run (or this one); null when there is none. */
export async function persistedPage(commit: string, key: string): Promise<StoredPage | null> {
  const dir = folder();
  return dir ? readPage(dir, commit, key) : null;
}

/** Keep a page the page cache rendered for `commit`, for the next start; a failed write costs only that. */
export async function persistPage(commit: string, page: StoredPage): Promise<void> {
  const dir = folder();
  if (dir) await writePage(dir, commit, page).catch(() => undefined);
}

/** Persist the read model `collect` gives, soon; only the newest of several waiting is written. */
export function persistLater(collect: () => Promise<{ notes: NoteLine[]; head: Head }>): void {
  const s = state();
  if (!folder()) return;
  s.next = collect;
  s.running ??= (async () => {
    try {
      while (s.next) {
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        const next = s.next;
        s.next = null;
        const dir = folder();
        // A failed write (a full disk, a read-only folder) costs the next start its time, nothing else.
        if (dir)
          await next()
            .then(
              (m) => writePersisted(dir, s.written, m.notes, m.head),
              () => undefined,
            )
            .catch(() => undefined);
      }
    } finally {
      s.running = null;
    }
  })();
}

/** Resolves when nothing is waiting to be written (tests, and a benchmark before it stops the server). */
export async function persisted(): Promise<void> {
  while (state().running) await state().running;
}

/** Tests: key the folder by `build` (null: persist nothing) instead of the app's build id, and forget what was written. */
export function keyByBuild(build: string | null | undefined): void {
  const s = state();
  s.build = build;
  s.written = new Set();
}
