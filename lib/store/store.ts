import { localTimezone, serializeCommit } from "./commit-object";
import { applyChanges, planChanges } from "./edit-tree";
import { StoreRequestError, UnknownRevisionError } from "./errors";
import { Histories, revision } from "./history";
import { EMPTY_TREE } from "./objects";
import { checkPath } from "./paths";
import { cleanMessage, sanitizePerson } from "./person";
import { checkRefName, listRefNames, OID, readRef } from "./refs";
import { updateRef } from "./ref-update";
import { Repo } from "./repo";
import { NOTES_DIR, Snapshots } from "./snapshot";
import { RefConflictError, type CommitRequest, type ContentStore, type Oid, type Person } from "./types";

/** Who commits on behalf of the app (the author is the person or agent who made the change). */
export const APP_IDENTITY: Person = { name: "Field Notes", email: "field-notes@invalid" };

/** Nothing would change: the commit would repeat its parent's tree. */
export class NothingToCommitError extends StoreRequestError {
  constructor(ref: string) {
    super(`nothing to commit on ${ref}: the changes leave every file as it is`);
    this.name = "NothingToCommitError";
  }
}

export function createContentStore(gitdir: string): ContentStore {
  const repo = new Repo(gitdir);
  const snapshots = new Snapshots(repo);
  const histories = new Histories(repo);

  async function commitOf(refOrOid: string): Promise<Oid> {
    const oid = await repo.resolve(refOrOid);
    if (oid === null) throw new UnknownRevisionError(refOrOid);
    return oid;
  }

  /** The blob at `path` in that revision, or null (unknown revision, bad path, missing file, a folder). */
  async function blobAt(refOrOid: string, path: string): Promise<Oid | null> {
    const oid = await repo.resolve(refOrOid);
    const commit = oid && (await repo.commit(oid));
    if (!commit) return null;
    let segments: string[];
    try {
      segments = checkPath(path);
    } catch {
      return null;
    }
    const entry = await repo.entryAt(commit.tree, segments);
    return entry && !entry.dir ? entry.oid : null;
  }

  return {
    gitdir,

    resolve: (ref) => repo.resolve(ref),

    async snapshot(refOrOid) {
      return snapshots.get(await commitOf(refOrOid));
    },

    async readFile(refOrOid, path) {
      const blob = await blobAt(refOrOid, path);
      if (blob === null) return null;
      const bytes = await repo.db.readType(blob, "blob");
      return bytes === null ? null : bytes.toString("utf8");
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

    async history(path, ref, opts = {}) {
      let segments: string[];
      try {
        segments = checkPath(path);
      } catch {
        return []; // a path no commit can hold has no history
      }
      const limit = opts.limit ?? Infinity;
      if (!(limit >= 0)) throw new StoreRequestError("history limit must be a number ≥ 0");
      return histories.of(await commitOf(ref), path, segments, limit);
    },

    async listRefs(prefix) {
      if (typeof prefix !== "string" || !prefix.startsWith("refs/") || prefix.split("/").some((s) => s === "." || s === "..")) {
        throw new StoreRequestError(`${JSON.stringify(prefix)}: a ref prefix must start with "refs/" and contain no "." or ".." segments`);
      }
      const names = await listRefNames(gitdir, prefix);
      const refs = await Promise.all(names.map(async (ref) => ({ ref, oid: await readRef(gitdir, ref) })));
      return refs.flatMap((r) => (r.oid ? [{ ref: r.ref, oid: r.oid }] : []));
    },

    async commit(req) {
      checkRefName(req.ref);
      const expected = checkOid(req.expected, "expected");
      const parentOid = req.parent === undefined ? expected : checkOid(req.parent, "parent");
      const author = sanitizePerson(req.author);
      const message = cleanMessage(req.message);
      const plan = planChanges(req.changes);

      // A stale save fails before writing anything; the check under the lock below is the real one.
      const current = await readRef(gitdir, req.ref);
      if (current !== expected) throw new RefConflictError(req.ref, expected, current);

      const parent = parentOid === null ? null : await repo.commit(parentOid);
      if (parentOid !== null && parent === null) throw new StoreRequestError(`${parentOid} is not a commit in the content repository`);
      const tree = (await applyChanges(repo, parent?.tree ?? null, plan)) ?? (await repo.db.write("tree", Buffer.alloc(0)));
      if (tree === (parent?.tree ?? EMPTY_TREE)) throw new NothingToCommitError(req.ref);

      const now = new Date();
      const when = { seconds: Math.floor(now.getTime() / 1000), tz: localTimezone(now) };
      const object = { tree, parents: parentOid ? [parentOid] : [], author: { ...author, ...when }, committer: { ...APP_IDENTITY, ...when }, message };
      const oid = await repo.db.write("commit", serializeCommit(object));
      await updateRef(gitdir, req.ref, expected, oid);
      return revision(oid, object);
    },

    async updateRef(ref, expected, next) {
      checkRefName(ref);
      const from = checkOid(expected, "expected");
      const to = checkOid(next, "next");
      if (to !== null && !(await repo.commit(to))) throw new StoreRequestError(`${to} is not a commit in the content repository`);
      await updateRef(gitdir, ref, from, to);
    },

    stats() {
      return { ...snapshots.counters, treesParsed: repo.counters.treesParsed, ...repo.db.counters };
    },
  };
}

function checkOid(oid: Oid | null, what: string): Oid | null {
  if (oid === null) return null;
  if (typeof oid !== "string" || !OID.test(oid)) throw new StoreRequestError(`${what} must be a full 40-character commit id or null, not ${JSON.stringify(oid)}`);
  return oid;
}
