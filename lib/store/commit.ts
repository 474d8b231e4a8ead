import { localTimezone, serializeCommit, type Signature } from "./commit-object";
import { applyChanges, planChanges } from "./edit-tree";
import { StoreRequestError } from "./errors";
import { checkPath } from "./paths";
import { revision } from "./history";
import { EMPTY_TREE } from "./objects";
import { cleanMessage, sanitizePerson } from "./person";
import { checkRefName, OID, readRef } from "./refs";
import { queued, setLocal, swapRef } from "./ref-update";
import { afterRejection, RemoteRewoundError, RemoteUnavailableError } from "./remote";
import type { Repo } from "./repo";
import { RefConflictError, type CommitRequest, type Oid, type Person, type RemoteLink, type Revision } from "./types";

/**
 * A save: one commit built from trees (no working tree, no index), then a compare-and-swap of the
 * ref. Everything that can be refused is refused before an object is written.
 */

/** Who commits on behalf of the app (the author is the person or agent who made the change). */
export const APP_IDENTITY: Person = { name: "Field Notes", email: "field-notes@invalid" };

/** Nothing would change: the commit would repeat its parent's tree. */
export class NothingToCommitError extends StoreRequestError {
  static override readonly brand: string = "NothingToCommitError";
  constructor(ref: string) {
    super(`nothing to commit on ${ref}: the changes leave every file as it is`);
    this.name = "NothingToCommitError";
  }
}

export function signatureNow(person: Person, now = new Date()): Signature {
  return { ...person, seconds: Math.floor(now.getTime() / 1000), tz: localTimezone(now) };
}

export async function commitChanges(repo: Repo, req: CommitRequest, remote?: RemoteLink | null): Promise<Revision> {
  checkRefName(req.ref);
  const expected = checkOid(req.expected, "expected");
  const parentOid = req.parent === undefined ? expected : checkOid(req.parent, "parent");
  const author = sanitizePerson(req.author);
  const message = cleanMessage(req.message);
  const plan = planChanges(req.changes);

  // Saves to one ref from this process take turns, so a save that lost the race fails at the check
  // below without writing a single object. The check under the lock file (swapRef) is the real one:
  // it also covers other processes and native git.
  return queued(repo.gitdir, req.ref, async () => {
    const current = await readRef(repo.gitdir, req.ref);
    if (current !== expected) throw new RefConflictError(req.ref, expected, current);

    const parent = parentOid === null ? null : await repo.commit(parentOid);
    if (parentOid !== null && parent === null) throw new StoreRequestError(`${parentOid} is not a commit in the content repository`);
    const tree = (await applyChanges(repo, parent?.tree ?? null, plan)) ?? (await repo.db.write("tree", Buffer.alloc(0)));
    if (tree === (parent?.tree ?? EMPTY_TREE)) throw new NothingToCommitError(req.ref);

    const now = new Date();
    const authored = req.authorDate ? { ...author, ...checkDate(req.authorDate) } : signatureNow(author, now);
    const object = { tree, parents: parentOid ? [parentOid] : [], author: authored, committer: signatureNow(APP_IDENTITY, now), message };
    const oid = await repo.db.write("commit", serializeCommit(object));
    if (remote) return pushCommit(repo, remote, req, { expected, parent: parentOid, oid, object, paths: Object.keys(req.changes), plan });
    await swapRef(repo.gitdir, req.ref, expected, oid);
    return revision(oid, object);
  });
}

const PUSH_ATTEMPTS = 6;
type Built = { expected: Oid | null; parent: Oid | null; oid: Oid; object: CommitObjectFields; paths: string[]; plan: ReturnType<typeof planChanges> };
type CommitObjectFields = Parameters<typeof serializeCommit>[0];

/**
 * With a remote, the commit reaches the remote first and the local ref follows (./remote). A push
 * refused because the remote's branch moved is handled like a local stale write: after a sync, the
 * same single-file change is rebuilt on the new tip when the remote touched none of its files,
 * and is a conflict (RefConflictError, the caller's 409) when it did (`afterRejection`).
 */
async function pushCommit(repo: Repo, remote: RemoteLink, req: CommitRequest, first: Built): Promise<Revision> {
  let built = first;
  for (let attempt = 1; ; attempt++) {
    const { expected, oid } = built;
    const pushed = await remote.push(req.ref, expected, oid, () => setLocal(repo.gitdir, req.ref, oid));
    if (pushed.ok) return revision(oid, built.object);
    await remote.sync();
    refuseIfRewound(remote, req.ref);
    const tip = await readRef(repo.gitdir, req.ref);
    const touchedByRemote = expected && tip ? await changedPaths(repo, expected, tip, built.paths) : built.paths;
    const next = afterRejection({ expected, parent: built.parent, tip, touchedByRemote, attempt, limit: PUSH_ATTEMPTS });
    if (next.kind === "conflict" || (next.kind === "rebase" && req.rebase === false)) {
      if (tip === expected) throw new RemoteUnavailableError(remote.displayUrl, `it refused the update of ${req.ref}: ${pushed.why}`);
      throw new RefConflictError(req.ref, first.expected, tip);
    }
    if (next.kind === "retry") {
      await new Promise((r) => setTimeout(r, 20 * attempt * (0.5 + Math.random())));
      continue;
    }
    const onto = (await repo.commit(next.onto))!;
    const tree = (await applyChanges(repo, onto.tree, built.plan)) ?? (await repo.db.write("tree", Buffer.alloc(0)));
    if (tree === onto.tree) throw new NothingToCommitError(req.ref); // the remote already holds exactly this change
    const object = { ...built.object, tree, parents: [next.onto] };
    built = { ...built, expected: next.onto, parent: next.onto, object, oid: await repo.db.write("commit", serializeCommit(object)) };
  }
}

/** The remote's branch was moved back and this instance does not follow: retrying cannot succeed. */
export function refuseIfRewound(remote: RemoteLink, ref: string): void {
  const r = remote.rewind;
  if (r && !r.followed && r.ref === ref) throw new RemoteRewoundError(ref, r);
}

/** Which of `paths` differ between two commits. */
async function changedPaths(repo: Repo, from: Oid, to: Oid, paths: string[]): Promise<string[]> {
  const [a, b] = await Promise.all([repo.commit(from), repo.commit(to)]);
  if (!a || !b) return paths;
  const out: string[] = [];
  for (const p of paths) {
    const segments = checkPath(p);
    const [x, y] = await Promise.all([repo.entryAt(a.tree, segments), repo.entryAt(b.tree, segments)]);
    if ((x?.oid ?? null) !== (y?.oid ?? null)) out.push(p);
  }
  return out;
}

function checkDate(d: { seconds: number; tz: string }): { seconds: number; tz: string } {
  if (!Number.isSafeInteger(d.seconds) || d.seconds < 0 || !/^[+-]\d{4}$/.test(d.tz)) {
    throw new StoreRequestError(`authorDate must be whole seconds since the epoch and a timezone like +0200, not ${JSON.stringify(d)}`);
  }
  return { seconds: d.seconds, tz: d.tz };
}

export function checkOid(oid: Oid | null, what: string): Oid | null {
  if (oid === null) return null;
  if (typeof oid !== "string" || !OID.test(oid))
    throw new StoreRequestError(`${what} must be a full 40-character commit id or null, not ${JSON.stringify(oid)}`);
  return oid;
}
