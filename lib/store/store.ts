import path from "node:path";
import { checkOid, commitChanges, refuseIfRewound } from "./commit";
import { setLocal } from "./ref-update";
import { StoreRequestError, UnknownRevisionError } from "./errors";
import { Histories } from "./history";
import { filesIn, firstParentLog, foldersIn } from "./log";
import { checkPath } from "./paths";
import { checkRefName, listRefNames, readRef } from "./refs";
import { RefConflictError } from "./types";
import { queued, updateRef } from "./ref-update";
import { createRemoteLink, type RemoteOptions } from "./remote";
import { Repo } from "./repo";
import { NOTES_DIR, Snapshots } from "./snapshot";
import type { ContentStore, NoteParser, Oid } from "./types";

export { APP_IDENTITY, NothingToCommitError } from "./commit";

export type StoreOptions<N> = {
  /** How a note file's text is read (the app passes lib/notes' parseNote). Without one, reading notes is refused. */
  parse?: NoteParser<N>;
  remote?: RemoteOptions;
};

/** A store opened without a parser (the accounts repository) holds no notes to read. */
const noParser: NoteParser<never> = () => {
  throw new StoreRequestError("this store was opened without a note parser: it does not read notes");
};

/**
 * The store over one bare repository. Refs are read from disk on every call; everything keyed by an
 * object id (trees, commits, parsed notes, snapshots, file histories) is cached, since it never changes.
 */
export function createContentStore<N = never>(dir: string, options: StoreOptions<N> = {}): ContentStore<N> {
  const gitdir = path.resolve(dir);
  const repo = new Repo(gitdir);
  // With a remote, every ref write reaches the remote first (./remote); the local refs mirror it.
  const remote = options.remote ? createRemoteLink(repo, options.remote) : null;
  const snapshots = new Snapshots<N>(repo, options.parse ?? noParser);
  const histories = new Histories(repo);

  async function commitOf(refOrOid: string): Promise<Oid> {
    const oid = await repo.resolve(refOrOid);
    if (oid === null) throw new UnknownRevisionError(refOrOid);
    return oid;
  }

  /** The blob at `path` in that revision, or null (unknown revision, bad path, missing file, a folder). */
  async function entryAt(refOrOid: string, file: string) {
    const oid = await repo.resolve(refOrOid);
    const commit = oid && (await repo.commit(oid));
    if (!commit) return null;
    let segments: string[];
    try {
      segments = checkPath(file);
    } catch {
      return null;
    }
    return repo.entryAt(commit.tree, segments);
  }

  async function blobAt(refOrOid: string, file: string): Promise<Oid | null> {
    const entry = await entryAt(refOrOid, file);
    return entry && !entry.dir ? entry.oid : null;
  }

  return {
    gitdir,
    remote,

    resolve: (ref) => repo.resolve(ref),

    async snapshot(refOrOid) {
      return snapshots.get(await commitOf(refOrOid));
    },

    async readFile(refOrOid, file) {
      const blob = await blobAt(refOrOid, file);
      if (blob === null) return null;
      const bytes = await repo.db.readType(blob, "blob");
      return bytes === null ? null : bytes.toString("utf8");
    },

    async readBytes(refOrOid, file) {
      const blob = await blobAt(refOrOid, file);
      return blob === null ? null : repo.db.readType(blob, "blob");
    },

    fileId: (refOrOid, file) => blobAt(refOrOid, file),

    async folderId(refOrOid, folder) {
      const entry = await entryAt(refOrOid, folder);
      return entry?.dir ? entry.oid : null;
    },

    async writeBlob(bytes) {
      if (!(bytes instanceof Uint8Array)) throw new StoreRequestError("a blob is written from bytes");
      return repo.db.write("blob", bytes);
    },

    async readBlob(oid) {
      if (typeof oid !== "string" || !/^[0-9a-f]{40}$/.test(oid)) return null;
      // The id may come from a request: a tree or commit by that id is "no such blob", not corruption.
      const object = await repo.db.read(oid);
      return object && object.type === "blob" ? object.content : null;
    },

    async readNote(id, refOrOid) {
      if (typeof id !== "string" || id === "" || id.includes("/")) return null;
      const name = `${id}.md`;
      const oid = await repo.resolve(refOrOid);
      if (oid === null) return null;
      const cached = snapshots.cachedNote(oid, name);
      if (cached !== undefined) return cached;
      const blob = await blobAt(oid, `${NOTES_DIR}/${name}`);
      return blob === null ? null : snapshots.note(name, blob);
    },

    async history(file, ref, opts = {}) {
      let segments: string[];
      try {
        segments = checkPath(file);
      } catch {
        return []; // a path no commit can hold has no history
      }
      const limit = opts.limit ?? Infinity;
      if (!(limit >= 0)) throw new StoreRequestError("history limit must be a number ≥ 0");
      return histories.of(await commitOf(ref), file, segments, limit);
    },

    async log(ref, opts = {}) {
      const until = opts.until ? await commitOf(opts.until) : null;
      return firstParentLog(repo, await commitOf(ref), until, opts.limit ?? Infinity);
    },

    async listFiles(refOrOid, folder) {
      let segments: string[];
      try {
        segments = folder === "" ? [] : checkPath(folder);
      } catch {
        return [];
      }
      return filesIn(repo, await commitOf(refOrOid), segments);
    },

    async listFolders(refOrOid, folder) {
      let segments: string[];
      try {
        segments = folder === "" ? [] : checkPath(folder);
      } catch {
        return [];
      }
      return foldersIn(repo, await commitOf(refOrOid), segments);
    },

    async listRefs(prefix) {
      if (typeof prefix !== "string" || !prefix.startsWith("refs/") || prefix.split("/").some((s) => s === "." || s === "..")) {
        throw new StoreRequestError(`${JSON.stringify(prefix)}: a ref prefix must start with "refs/" and contain no "." or ".." segments`);
      }
      const names = await listRefNames(gitdir, prefix);
      const refs = await Promise.all(names.map(async (ref) => ({ ref, oid: await readRef(gitdir, ref) })));
      return refs.flatMap((r) => (r.oid ? [{ ref: r.ref, oid: r.oid }] : []));
    },

    commit: (req) => commitChanges(repo, req, remote),

    async updateRef(ref, expected, next) {
      checkRefName(ref);
      const from = checkOid(expected, "expected");
      const to = checkOid(next, "next");
      if (to !== null && !(await repo.commit(to))) throw new StoreRequestError(`${to} is not a commit in the content repository`);
      if (!remote) return updateRef(gitdir, ref, from, to);
      // The remote first, with the expected old value; a refusal is a conflict, as a local one is.
      await queued(gitdir, ref, async () => {
        const current = await readRef(gitdir, ref);
        if (current !== from) throw new RefConflictError(ref, from, current);
        const pushed = await remote.push(ref, from, to, () => setLocal(gitdir, ref, to));
        if (pushed.ok) return;
        await remote.sync();
        refuseIfRewound(remote, ref);
        throw new RefConflictError(ref, from, await readRef(gitdir, ref));
      });
    },

    seedParsed: (entries) => snapshots.seed(entries),

    stats() {
      return { ...snapshots.counters, treesParsed: repo.counters.treesParsed, ...repo.db.counters };
    },
  };
}
