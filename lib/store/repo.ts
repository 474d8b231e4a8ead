import { LRUCache } from "lru-cache";
import { CorruptRepositoryError } from "./errors";
import { parseCommit, type CommitObject } from "./commit-object";
import { ObjectDb } from "./objects";
import { OID, readRef, refNameProblem } from "./refs";
import { DIR_MODE, RawTree, Tree } from "./tree";
import type { Oid } from "./types";

/**
 * Parsed objects by id. Objects never change, so these caches never go stale; they are bounded, and
 * trees written by this process go straight in (the next save on a branch never re-reads them).
 */
export class Repo {
  readonly db: ObjectDb;
  // Parsed trees weigh their entries: one entry costs about 260 bytes of heap (an object, three
  // strings, a Buffer view), so a 10,000-note notes/ tree is 2.6 MB. 30,000 entries (about 8 MB) keep
  // the trees a snapshot diff and the next save read (main's notes/ tree and one or two more); a
  // miss re-parses one tree (milliseconds), and lookups in old trees use rawTrees. The former 200,000
  // kept every notes/ tree of the last commits: 17 MB of heap after bench:read's seven commits at
  // 10,000 notes (heap snapshot), up to 52 MB.
  // (lru-cache, like every cache here: an entry heavier than its cache's whole bound is not kept.)
  private readonly trees = new LRUCache<Oid, Tree>({ maxSize: 30_000, sizeCalculation: (t) => Math.max(1, t.entries.length) });
  private readonly commits = new LRUCache<Oid, CommitObject>({ max: 20_000 });
  // Trees only looked into (lookup), by bytes: a history walk of every note (last-change dates on a
  // cold start) asks each commit's notes/ tree once per note, so without this a 10,000-note archive
  // with a few recent commits inflated and hashed a 400 kB tree tens of thousands of times (minutes,
  // and GBs of RSS in short-lived buffers). 32 MB holds about 80 such trees, a walk across 80 commits.
  private readonly rawTrees = new LRUCache<Oid, RawTree>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (t) => Math.max(1, t.bytes) });
  private readonly readingRaw = new Map<Oid, Promise<RawTree>>();
  readonly counters = { treesParsed: 0 };

  constructor(readonly gitdir: string) {
    this.db = new ObjectDb(gitdir);
  }

  async tree(oid: Oid): Promise<Tree> {
    const hit = this.trees.get(oid);
    if (hit) return hit;
    const raw = await this.db.readType(oid, "tree");
    if (raw === null) throw new CorruptRepositoryError(`tree ${oid} is missing from the repository`);
    const tree = Tree.parse(oid, raw);
    this.counters.treesParsed++;
    this.trees.set(oid, tree);
    return tree;
  }

  async writeTree(tree: Tree): Promise<Oid> {
    const oid = await this.db.write("tree", tree.serialize());
    this.trees.set(oid, tree);
    return oid;
  }

  /** The commit, or null when `oid` is not a commit this repository has. */
  async commit(oid: Oid): Promise<CommitObject | null> {
    const hit = this.commits.get(oid);
    if (hit) return hit;
    const object = await this.db.read(oid);
    if (object === null || object.type !== "commit") return null;
    const commit = parseCommit(oid, object.content);
    this.commits.set(oid, commit);
    return commit;
  }

  /**
   * A revision as git users name it: "refs/heads/main", "main", "HEAD", "drafts/AFN-022", a tag, a
   * 40-hex commit id or an abbreviated one (at least 4 hex digits, unambiguous), each optionally
   * followed by git's ancestry steps: "~N" (N first parents back), "^" / "^N" (the N-th parent).
   * Tags are peeled to their commit. Null when nothing by that name exists.
   */
  async resolve(revision: string): Promise<Oid | null> {
    if (typeof revision !== "string") return null;
    const steps = /^(.*?)((?:[~^]\d*)*)$/.exec(revision);
    const base = steps?.[1] ?? "";
    let oid = await this.resolveName(base);
    for (const [, op, n] of (steps?.[2] ?? "").matchAll(/([~^])(\d*)/g)) {
      if (oid === null) return null;
      const count = n === "" ? 1 : Number(n);
      if (op === "~") {
        for (let i = 0; i < count && oid !== null; i++) oid = (await this.commit(oid))?.parents[0] ?? null;
      } else if (count > 0) oid = (await this.commit(oid))?.parents[count - 1] ?? null;
    }
    return oid;
  }

  private async resolveName(revision: string): Promise<Oid | null> {
    if (revision === "" || revision.includes("..") || revision.startsWith("/")) return null;
    let oid: Oid | null = null;
    if (OID.test(revision)) {
      if (this.commits.get(revision)) return revision;
      oid = revision;
    } else {
      const candidates = revision === "HEAD" || revision.startsWith("refs/") ? [revision] : [`refs/heads/${revision}`, `refs/tags/${revision}`];
      for (const ref of candidates) {
        // Only names git could have written are looked up: never "x.lock", "../", or control characters.
        if (ref !== "HEAD" && refNameProblem(ref) !== null) continue;
        if ((oid = await readRef(this.gitdir, ref)) !== null) break;
      }
      // As git does, a name that is no ref may be an abbreviated commit id.
      if (oid === null && /^[0-9a-f]{4,39}$/.test(revision)) oid = await this.db.expand(revision);
    }
    return oid === null ? null : this.peel(oid);
  }

  private async peel(oid: Oid): Promise<Oid | null> {
    // A ref usually names a commit already read: every request resolves main, and re-reading (and
    // hashing) its object each time is work for nothing.
    if (this.commits.get(oid)) return oid;
    for (let depth = 0; depth < 10; depth++) {
      const object = await this.db.read(oid);
      if (object === null) return null;
      if (object.type === "commit") return oid;
      if (object.type !== "tag") return null;
      const target = /^object ([0-9a-f]{40})$/m.exec(object.content.toString("utf8"))?.[1];
      if (!target) return null;
      oid = target;
    }
    return null;
  }

  /** The entry at `path` in the tree `root` (blob or tree id and mode), or null. */
  async entryAt(root: Oid, segments: string[]): Promise<{ oid: Oid; mode: string; dir: boolean } | null> {
    let treeOid = root;
    for (let i = 0; i < segments.length; i++) {
      const entry = await this.lookup(treeOid, segments[i]!);
      if (!entry) return null;
      const dir = entry.mode === DIR_MODE || entry.mode === "040000";
      if (i === segments.length - 1) return { oid: entry.oid, mode: entry.mode, dir };
      if (!dir) return null;
      treeOid = entry.oid;
    }
    return { oid: root, mode: DIR_MODE, dir: true };
  }

  /** One name in one tree: from the parsed tree if there is one, else from its bytes (kept, see rawTrees). */
  private async lookup(treeOid: Oid, name: string): Promise<{ mode: string; oid: Oid } | null> {
    const cached = this.trees.get(treeOid);
    if (cached) return cached.get(name) ?? null;
    const raw = this.rawTrees.get(treeOid) ?? (await this.readRawTree(treeOid));
    return raw.find(name);
  }

  /** Concurrent walks ask for the same tree at once: one read serves them all. */
  private readRawTree(oid: Oid): Promise<RawTree> {
    let pending = this.readingRaw.get(oid);
    if (!pending) {
      pending = (async () => {
        const bytes = await this.db.readType(oid, "tree");
        if (bytes === null) throw new CorruptRepositoryError(`tree ${oid} is missing from the repository`);
        const raw = new RawTree(oid, bytes);
        this.rawTrees.set(oid, raw);
        return raw;
      })().finally(() => this.readingRaw.delete(oid));
      this.readingRaw.set(oid, pending);
    }
    return pending;
  }
}
