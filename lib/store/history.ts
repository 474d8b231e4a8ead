import { LRUCache } from "lru-cache";
import { isoDate, type CommitObject } from "./commit-object";
import type { Repo } from "./repo";
import type { FileRevision, Oid, Revision } from "./types";

/**
 * The revisions of one file, newest first, along first parents (the branch's own line, as
 * `git log --first-parent -- <path>` shows it). A file's history from a commit is remembered, so
 * after a new commit only the commits since are walked.
 */

export class Histories {
  private readonly memo = new LRUCache<string, FileRevision[]>({ maxSize: 50_000, sizeCalculation: (h) => h.length + 1 });

  constructor(private readonly repo: Repo) {}

  async of(start: Oid, path: string, segments: string[], limit = Infinity): Promise<FileRevision[]> {
    const found: FileRevision[] = [];
    const walked: { commit: Oid; count: number }[] = [];
    let oid: Oid | undefined = start;
    let commit = await this.load(oid);
    let blob = await this.blobAt(commit, segments);
    while (oid !== undefined && found.length < limit) {
      const known = this.memo.get(key(oid, path));
      if (known) {
        found.push(...known);
        break;
      }
      walked.push({ commit: oid, count: found.length });
      const parentOid: Oid | undefined = commit.parents[0];
      const parent = parentOid === undefined ? null : await this.load(parentOid);
      const parentBlob = parent === null ? null : await this.blobAt(parent, segments);
      if (blob !== parentBlob) found.push({ ...revision(oid, commit), path, blob });
      oid = parentOid;
      if (parent) commit = parent;
      blob = parentBlob;
    }
    // A complete walk tells each commit on the way its own full history of this path.
    if (found.length < limit || oid === undefined) for (const w of walked) this.memo.set(key(w.commit, path), found.slice(w.count));
    return found.slice(0, limit);
  }

  private async load(oid: Oid): Promise<CommitObject> {
    const commit = await this.repo.commit(oid);
    if (!commit) throw new Error(`commit ${oid} is missing from the repository`);
    return commit;
  }

  private async blobAt(commit: CommitObject, segments: string[]): Promise<Oid | null> {
    const entry = await this.repo.entryAt(commit.tree, segments);
    return entry && !entry.dir ? entry.oid : null;
  }
}

const key = (commit: Oid, path: string) => `${commit}\0${path}`;

export function revision(oid: Oid, c: CommitObject): Revision {
  return {
    commit: oid,
    parents: c.parents,
    author: { name: c.author.name, email: c.author.email },
    date: isoDate(c.author),
    committed: isoDate(c.committer),
    message: c.message.replace(/\s+$/, ""),
  };
}
