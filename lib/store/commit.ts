import { localTimezone, serializeCommit, type Signature } from "./commit-object";
import { applyChanges, planChanges } from "./edit-tree";
import { StoreRequestError } from "./errors";
import { revision } from "./history";
import { EMPTY_TREE } from "./objects";
import { cleanMessage, sanitizePerson } from "./person";
import { checkRefName, OID, readRef } from "./refs";
import { queued, swapRef } from "./ref-update";
import type { Repo } from "./repo";
import { RefConflictError, type CommitRequest, type Oid, type Person, type Revision } from "./types";

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

export async function commitChanges(repo: Repo, req: CommitRequest): Promise<Revision> {
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
    const object = { tree, parents: parentOid ? [parentOid] : [], author: signatureNow(author, now), committer: signatureNow(APP_IDENTITY, now), message };
    const oid = await repo.db.write("commit", serializeCommit(object));
    await swapRef(repo.gitdir, req.ref, expected, oid);
    return revision(oid, object);
  });
}

export function checkOid(oid: Oid | null, what: string): Oid | null {
  if (oid === null) return null;
  if (typeof oid !== "string" || !OID.test(oid)) throw new StoreRequestError(`${what} must be a full 40-character commit id or null, not ${JSON.stringify(oid)}`);
  return oid;
}
