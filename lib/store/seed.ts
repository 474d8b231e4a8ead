import * as git from "isomorphic-git";
import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { APP_IDENTITY, signatureNow } from "./commit";
import { serializeCommit } from "./commit-object";
import { applyChanges, planChanges, type Content } from "./edit-tree";
import { DEFAULT_BRANCH, DEFAULT_BRANCH_NAME } from "./default-branch";
import { gitFs } from "./git-fs";
import { clearStaleRefLocks } from "./ref-lock";
import { updateRef } from "./ref-update";
import { listRefNames, readRef } from "./refs";
import { Repo } from "./repo";
import { RefConflictError } from "./types";

/**
 * The embedded content repository: created on first start as a bare repository whose `main` holds
 * one commit with every file of the seed folder (the project's content/). Built in a temporary
 * folder beside the target and renamed into place, so two processes starting at once end up with
 * one complete repository, never a half-seeded one.
 */

export const SEED_MESSAGE = "Seed the content repository from content/";

export async function ensureContentRepo(gitdir: string, seedDir: string): Promise<void> {
  if (await isRepository(gitdir)) {
    // Locks a crash of the previous run left behind go now, before any save or native git meets them.
    await clearStaleRefLocks(gitdir);
    return seedEmptyRepository(gitdir, seedDir);
  }
  await refuseForeignFolder(gitdir);
  const files = await readSeed(seedDir);
  await createBareRepository(gitdir, (tmp) => seedMain(tmp, files));
}

/**
 * A new bare repository at `gitdir`, whole before anyone can open it: made in a temporary folder
 * beside it, given what `fill` writes there (the seed commit, or nothing for a mirror that fetches
 * next), then renamed into place. When another process renamed its own into place first, that one
 * is used and ours is dropped.
 */
export async function createBareRepository(gitdir: string, fill: (tmp: string) => Promise<void> = async () => {}): Promise<void> {
  await fs.mkdir(path.dirname(gitdir), { recursive: true });
  const tmp = `${gitdir}.tmp-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await git.init({ fs: gitFs, gitdir: tmp, bare: true, defaultBranch: DEFAULT_BRANCH_NAME });
    // isomorphic-git's defaults (ignorecase, no filemode) describe a browser, not this disk.
    await fs.writeFile(path.join(tmp, "config"), "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n");
    await fill(tmp);
    try {
      await fs.rename(tmp, gitdir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Another process renamed its repository into place first: use that one.
      if ((code === "ENOTEMPTY" || code === "EEXIST") && (await isRepository(gitdir))) return;
      throw e;
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/** The seed commit, created as refs/heads/main (compare-and-swap from nothing). */
async function seedMain(gitdir: string, files: Record<string, Content>): Promise<void> {
  const repo = new Repo(gitdir);
  const tree = (await applyChanges(repo, null, planChanges(files))) ?? (await repo.db.write("tree", Buffer.alloc(0)));
  const who = signatureNow(APP_IDENTITY);
  const commit = await repo.db.write("commit", serializeCommit({ tree, parents: [], author: who, committer: who, message: `${SEED_MESSAGE}\n` }));
  await updateRef(gitdir, DEFAULT_BRANCH, null, commit);
}

/**
 * A repository someone made with `git init --bare` and pointed CONTENT_REPO at: no refs at all. It
 * gets the seed on main, and HEAD is pointed at main so clones check it out. A repository with any
 * ref is left exactly as it is.
 */
async function seedEmptyRepository(gitdir: string, seedDir: string): Promise<void> {
  if ((await listRefNames(gitdir, "refs/")).length > 0) return;
  try {
    await seedMain(gitdir, await readSeed(seedDir));
  } catch (e) {
    if (e instanceof RefConflictError) return; // another process seeded it first
    throw e;
  }
  const head = (await fs.readFile(path.join(gitdir, "HEAD"), "utf8")).trim();
  if (head !== `ref: ${DEFAULT_BRANCH}` && (await readRef(gitdir, "HEAD")) === null) {
    await fs.writeFile(path.join(gitdir, "HEAD"), `ref: ${DEFAULT_BRANCH}\n`);
  }
}

export async function isRepository(gitdir: string): Promise<boolean> {
  try {
    const [head, objects] = await Promise.all([fs.stat(path.join(gitdir, "HEAD")), fs.stat(path.join(gitdir, "objects"))]);
    return head.isFile() && objects.isDirectory();
  } catch {
    return false;
  }
}

async function refuseForeignFolder(gitdir: string): Promise<void> {
  let entries: string[];
  try {
    entries = await fs.readdir(gitdir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code === "ENOTDIR") throw new Error(`the content repository path ${gitdir} is a file, not a folder`);
    throw e;
  }
  if (entries.length > 0) throw new Error(`${gitdir} exists and is not a git repository; point CONTENT_REPO at a bare repository or an empty folder`);
}

/** Every regular file under `seedDir`, by path relative to it ("notes/AFN-001.md"). */
async function readSeed(seedDir: string): Promise<Record<string, Content>> {
  const files: Record<string, Content> = {};
  const walk = async (dir: string, prefix: string) => {
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") throw new Error(`the seed folder ${seedDir} does not exist`);
      throw e;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, `${prefix}${entry.name}/`);
      else if (entry.isFile()) files[`${prefix}${entry.name}`] = await fs.readFile(full);
    }
  };
  await walk(seedDir, "");
  if (Object.keys(files).length === 0) throw new Error(`the seed folder ${seedDir} has no files`);
  return files;
}
