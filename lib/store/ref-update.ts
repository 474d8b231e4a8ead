import fs from "node:fs/promises";
import path from "node:path";
import { RefLockedError, StoreRequestError } from "./errors";
import { createLock, removeIfStale, writeScratch, type Log } from "./ref-lock";
import { readPackedRefs, readRef, readRefValue } from "./refs";
import { RefConflictError, type Oid } from "./types";

/**
 * Moving a ref with compare-and-swap under git's lock file, so the app, other app instances and
 * native git (push, update-ref, gc) all exclude each other: create `<ref>.lock` exclusively, check
 * the ref still holds what the caller read, rename the new value over the ref, remove the lock.
 * isomorphic-git's writeRef neither compares nor locks.
 *
 * Unlike git, the new value is not written into the lock: it is written and fsynced in a scratch
 * file first and renamed over the ref, so that our lock holds its writer's identity for as long as
 * it exists, and a lock left by a crash can be told from a live one (./ref-lock, the stale-lock rule).
 */

const LOCK_WAIT_MS = 2000;

/** Work on one ref in this process runs one at a time, so writers queue instead of polling a lock file. */
const queues = new Map<string, Promise<unknown>>();

export async function queued<T>(gitdir: string, ref: string, work: () => Promise<T>): Promise<T> {
  const key = path.join(gitdir, ref);
  const run = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(work);
  queues.set(key, run);
  try {
    return await run;
  } finally {
    if (queues.get(key) === run) queues.delete(key);
  }
}

export function updateRef(gitdir: string, ref: string, expected: Oid | null, next: Oid | null): Promise<void> {
  return queued(gitdir, ref, () => swapRef(gitdir, ref, expected, next));
}

/** The compare-and-swap itself, under git's lock file; callers in this process hold the ref's queue. */
export async function swapRef(gitdir: string, ref: string, expected: Oid | null, next: Oid | null): Promise<void> {
  const file = path.join(gitdir, ref);
  // Written and flushed before the lock is taken, so the lock is held only for a read and a rename.
  const value = next === null ? null : await writeScratch(gitdir, `${next}\n`, true);
  try {
    const lock = await acquireRefLock(gitdir, ref);
    try {
      const current = await readRefValue(gitdir, ref);
      if (current && "symbolic" in current) throw new StoreRequestError(`${ref} is a symbolic ref (to ${current.symbolic}); write to its target`);
      const actual = current?.oid ?? null;
      if (actual !== expected) throw new RefConflictError(ref, expected, actual);
      if (value === null) {
        await removePacked(gitdir, ref);
        await fs.rm(file, { force: true });
      } else {
        await rename(value, file, ref);
      }
    } finally {
      await lock.release();
    }
  } finally {
    if (value !== null) await fs.rm(value, { force: true });
  }
  if (next === null) await removeEmptyFolders(gitdir, path.posix.dirname(ref));
}

export type RefLock = { file: string; release: () => Promise<void> };

/**
 * Take `<ref>.lock` ("packed-refs" takes packed-refs.lock), waiting up to LOCK_WAIT_MS for a live
 * holder and removing a stale one by the rule in ./ref-lock. Exported for the crash test, which holds one and dies.
 */
export async function acquireRefLock(gitdir: string, ref: string, log?: Log): Promise<RefLock> {
  const file = `${path.join(gitdir, ref)}.lock`;
  await acquire(gitdir, ref, file, log);
  return { file, release: () => fs.rm(file, { force: true }) };
}

/** After deleting refs/heads/drafts/AFN-022, drop refs/heads/drafts if it is now empty, as git does. */
async function removeEmptyFolders(gitdir: string, dir: string): Promise<void> {
  for (let d = dir; d.split("/").length > 2; d = path.posix.dirname(d)) {
    try {
      await fs.rmdir(path.join(gitdir, d));
    } catch {
      return; // not empty (or already gone): the folders above are not empty either
    }
  }
}

async function acquire(gitdir: string, ref: string, lockFile: string, log?: Log): Promise<void> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await createLock(gitdir, lockFile);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" && attempt < 3) {
        await makeParent(ref, lockFile);
        continue;
      }
      if (code !== "EEXIST") throw e;
    }
    const judged = await removeIfStale(gitdir, lockFile, log);
    if (judged.state === "removed") continue;
    const waited = Date.now() - started;
    if (waited >= LOCK_WAIT_MS) throw new RefLockedError(ref, lockFile, waited, judged.state === "live" ? judged.holder : undefined);
    // Jittered, growing waits: lock holders keep it for about a millisecond.
    await new Promise((r) => setTimeout(r, Math.min(50, 2 + attempt * 2) * (0.5 + Math.random())));
  }
}

async function makeParent(ref: string, lockFile: string): Promise<void> {
  try {
    await fs.mkdir(path.dirname(lockFile), { recursive: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") throw new StoreRequestError(`${ref} cannot be created: a ref named like one of its folders exists`);
    throw e;
  }
}

async function rename(from: string, to: string, ref: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EISDIR" || code === "ENOTEMPTY") throw new StoreRequestError(`${ref} cannot be written: refs exist below it (${ref}/…)`);
    throw e;
  }
}

/** Deleting a ref that lives in packed-refs means rewriting that file, under its own lock. */
async function removePacked(gitdir: string, ref: string): Promise<void> {
  if (!(await readPackedRefs(gitdir)).has(ref)) return;
  const file = path.join(gitdir, "packed-refs");
  const lock = await acquireRefLock(gitdir, "packed-refs");
  let scratch: string | null = null;
  try {
    const lines = (await fs.readFile(file, "utf8")).split("\n");
    const kept: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] ?? "";
      if (line.slice(41) === ref && !line.startsWith("#") && !line.startsWith("^")) {
        if (lines[i + 1]?.startsWith("^")) i++; // its peeled line goes with it
        continue;
      }
      kept.push(line);
    }
    scratch = await writeScratch(gitdir, kept.join("\n"), true);
    await fs.rename(scratch, file);
  } finally {
    if (scratch !== null) await fs.rm(scratch, { force: true });
    await lock.release();
  }
}

/** After the remote took the commit: the local mirror follows, whatever a sync set meanwhile. */
export async function setLocal(gitdir: string, ref: string, value: Oid | null): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const current = await readRef(gitdir, ref);
    if (current === value) return;
    try {
      await swapRef(gitdir, ref, current, value);
      return;
    } catch (e) {
      if (!(e instanceof RefConflictError)) throw e;
    }
  }
}
