import { createHash, randomBytes } from "node:crypto";
import { readFileSync, readlinkSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { threadId } from "node:worker_threads";

/**
 * Stale ref locks (docs/decisions/stale-ref-locks.md). A writer that dies between taking
 * `<ref>.lock` and removing it leaves the lock behind, and git's protocol has no rule for that:
 * every later writer, ours or native git, waits for it forever. So each lock we take names its
 * writer (host, boot, pid namespace, pid, process start time), and a lock is removed — with a log
 * line, never silently — only when
 *   - it names a writer on this machine whose process is gone (or whose pid now runs something
 *     else), or
 *   - it names nobody we can check (native git writes only the new value into its lock) and is
 *     older than STALE_UNATTRIBUTED_MS, an age no live ref write reaches: git holds a ref lock for
 *     milliseconds and itself gives up waiting for one after 100 ms (1 s for packed-refs).
 * A lock whose writer is running is never removed, however old.
 */

export const STALE_UNATTRIBUTED_MS = 10_000;

/** Our scratch files inside the repository: lock contents before they are linked into place, new ref values before they are renamed. */
export const SCRATCH_DIR = "field-notes-tmp";

/** Scratch files live milliseconds; one this old belongs to a writer that died. */
const STALE_SCRATCH_MS = 60_000;

export type Writer = { app: "field-notes"; host: string; boot: string; pidns: string; pid: number; start: string; thread: number };

export type Log = (line: string) => void;
export const warn: Log = (line) => console.warn(line);

const readOr = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return "";
  }
};

/** A process's state letter and start time (clock ticks after boot) from /proc, or null off Linux or when hidden. */
export function procStat(pid: number | "self"): { state: string; start: string } | null {
  const text = readOr(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces and parentheses; the fields after its last ")" are plain.
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const start = rest[19];
  return text && rest[0] && start ? { state: rest[0], start } : null;
}

let self: Writer | undefined;

/** Who this process is, as a lock records it. The pid alone is not enough: pids are reused, and other containers share the disk. */
export function thisWriter(): Writer {
  if (!self) {
    let pidns = "";
    try {
      pidns = readlinkSync("/proc/self/ns/pid");
    } catch {
      // not Linux: writers are then judged by the age of their lock only
    }
    const boot = readOr("/proc/sys/kernel/random/boot_id").trim();
    self = { app: "field-notes", host: os.hostname(), boot, pidns, pid: process.pid, start: procStat("self")?.start ?? "", thread: threadId };
  }
  return self;
}

function parseWriter(text: string): Writer | null {
  if (!text.startsWith("{")) return null;
  try {
    const w = JSON.parse(text) as Partial<Writer>;
    const ok = w.app === "field-notes" && typeof w.pid === "number" && Number.isInteger(w.pid) && w.pid > 0;
    return ok && typeof w.boot === "string" && typeof w.pidns === "string" && typeof w.start === "string" && typeof w.host === "string" ? (w as Writer) : null;
  } catch {
    return null;
  }
}

/** true: the writer runs; false: it is gone; null: it cannot be checked from here (another machine or container, no /proc). */
export function writerAlive(w: Writer): boolean | null {
  const me = thisWriter();
  if (!me.boot || !me.pidns || w.boot !== me.boot || w.pidns !== me.pidns) return null;
  try {
    process.kill(w.pid, 0);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ESRCH") return false;
    if (code !== "EPERM") return null; // EPERM: it exists, as another user
  }
  const now = procStat(w.pid);
  if (now === null || w.start === "") return null;
  // A zombie has exited (only its parent has not collected it yet); another start time is another program on a reused pid.
  if (now.state === "Z" || now.state === "X" || now.start !== w.start) return false;
  return true;
}

const describe = (w: Writer) => `process ${w.pid} on ${w.host}`;

export type Judgement = { state: "gone" } | { state: "live"; holder: string } | { state: "stale"; why: string };

/** What a lock file is: gone already, held by a live (or possibly live) writer, or stale by the rule above. */
export async function judgeLock(lockFile: string, now = Date.now()): Promise<Judgement> {
  let mtime: number;
  let text: string;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(lockFile, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return { state: "gone" };
    throw e;
  }
  // Age and content from one open file: the lock at this path may be replaced while we look.
  try {
    mtime = (await handle.stat()).mtimeMs;
    text = await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
  const writer = parseWriter(text);
  const alive = writer && writerAlive(writer);
  if (writer && alive === false) return { state: "stale", why: `its writer, ${describe(writer)}, has exited` };
  if (writer && alive === true) return { state: "live", holder: `${describe(writer)}, which is running` };
  const age = Math.max(0, now - mtime);
  const who = writer ? `${describe(writer)}, which cannot be checked from here` : "a writer it does not name (native git, or an older version of the app)";
  if (age >= STALE_UNATTRIBUTED_MS) {
    return {
      state: "stale",
      why: `taken by ${who} ${(age / 1000).toFixed(1)} s ago; no live ref write holds a lock that long (bound ${STALE_UNATTRIBUTED_MS / 1000} s)`,
    };
  }
  return { state: "live", holder: `${who}, taken ${age.toFixed(0)} ms ago (removed if it is still there after ${STALE_UNATTRIBUTED_MS / 1000} s)` };
}

export function scratchFile(gitdir: string): string {
  return path.join(gitdir, SCRATCH_DIR, `${process.pid}-${threadId}-${randomBytes(6).toString("hex")}`);
}

/** A new file in the scratch folder holding `text`, flushed to disk when `durable` (a ref value about to be renamed into place). */
export async function writeScratch(gitdir: string, text: string, durable: boolean): Promise<string> {
  const file = scratchFile(gitdir);
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "wx", 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    await fs.mkdir(path.dirname(file), { recursive: true });
    handle = await fs.open(file, "wx", 0o644);
  }
  try {
    await handle.writeFile(text);
    if (durable) await handle.sync();
  } finally {
    await handle.close();
  }
  return file;
}

/**
 * Create `lockFile` exclusively, already holding this writer's identity: the identity is written to
 * a scratch file and hard-linked into place, so no moment exists at which our lock is an empty file
 * nobody could attribute. Throws EEXIST when the lock is taken, ENOENT when its folder is missing.
 */
export async function createLock(gitdir: string, lockFile: string): Promise<void> {
  const scratch = await writeScratch(gitdir, `${JSON.stringify(thisWriter())}\n`, false);
  try {
    await fs.link(scratch, lockFile);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EOPNOTSUPP" && code !== "ENOSYS" && code !== "EXDEV") throw e;
    // A file system without hard links: create, then write (a crash in between leaves an empty lock, removed by age).
    const handle = await fs.open(lockFile, "wx", 0o644);
    try {
      await handle.writeFile(`${JSON.stringify(thisWriter())}\n`);
    } finally {
      await handle.close();
    }
  } finally {
    await fs.rm(scratch, { force: true });
  }
}

/**
 * Remove `lockFile` if it is stale, logging why. Two of our processes never remove one lock at
 * once: the removal happens under a per-lock "breaker" file, and the lock is judged again under it
 * (it may have been replaced by a live writer's lock since the first look).
 */
export async function removeIfStale(gitdir: string, lockFile: string, log: Log = warn): Promise<Judgement | { state: "removed" }> {
  const first = await judgeLock(lockFile);
  if (first.state !== "stale") return first;
  const breaker = path.join(gitdir, SCRATCH_DIR, `break-${createHash("sha1").update(path.relative(gitdir, lockFile)).digest("hex")}`);
  try {
    await createLock(gitdir, breaker);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    // Another process is removing it this moment, or died doing so: its breaker goes by the same rule.
    const other = await judgeLock(breaker);
    if (other.state === "stale") {
      await fs.rm(breaker, { force: true });
      log(`content store: removed stale lock ${breaker} (${other.why})`);
    }
    return { state: "live", holder: "a writer that is removing it as stale" };
  }
  try {
    const again = await judgeLock(lockFile);
    if (again.state !== "stale") return again;
    await fs.rm(lockFile, { force: true });
    log(`content store: removed stale lock ${lockFile} (${again.why})`);
    return { state: "removed" };
  } finally {
    await fs.rm(breaker, { force: true });
  }
}

/**
 * On start: every stale lock in the repository goes (refs/**, packed-refs.lock), so a draft, a
 * review thread or main that a crash left locked is writable at once, by the app and by native
 * git, not only when the app next writes that ref. Old scratch files go too. Returns the removed locks.
 */
export async function clearStaleRefLocks(gitdir: string, log: Log = warn): Promise<string[]> {
  const locks = [path.join(gitdir, "packed-refs.lock"), ...(await lockFilesUnder(path.join(gitdir, "refs")))];
  const removed: string[] = [];
  for (const lock of locks) if ((await removeIfStale(gitdir, lock, log)).state === "removed") removed.push(lock);

  const scratch = path.join(gitdir, SCRATCH_DIR);
  let names: string[] = [];
  try {
    names = await fs.readdir(scratch);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  for (const name of names) {
    const file = path.join(scratch, name);
    if (name.startsWith("break-")) {
      if ((await removeIfStale(gitdir, file, log)).state === "removed") removed.push(file);
      continue;
    }
    const stat = await fs.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_SCRATCH_MS) await fs.rm(file, { force: true });
  }
  return removed;
}

async function lockFilesUnder(dir: string): Promise<string[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw e;
  }
  const found: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await lockFilesUnder(full)));
    else if (entry.name.endsWith(".lock")) found.push(full);
  }
  return found;
}
