import { revision } from "./history";
import type { Repo } from "./repo";
import { isDir } from "./tree";
import type { Oid, Revision } from "./types";

/** Commits along first parents from `start`, newest first, stopping before `until` (exclusive) or at `limit`. */
export async function firstParentLog(repo: Repo, start: Oid, until: Oid | null, limit: number): Promise<Revision[]> {
  const out: Revision[] = [];
  let oid: Oid | undefined = start;
  while (oid !== undefined && oid !== until && out.length < limit) {
    const commit = await repo.commit(oid);
    if (!commit) throw new Error(`commit ${oid} is missing from the repository`);
    out.push(revision(oid, commit));
    oid = commit.parents[0];
  }
  return out;
}

/** Names of the files (not folders) directly inside a folder of a commit's tree, sorted; [] when absent. */
export async function foldersIn(repo: Repo, commit: Oid, segments: string[]): Promise<string[]> {
  const c = await repo.commit(commit);
  if (!c) return [];
  const entry = segments.length ? await repo.entryAt(c.tree, segments) : { oid: c.tree, dir: true };
  if (!entry?.dir) return [];
  const tree = await repo.tree(entry.oid);
  return tree.entries.filter((e) => isDir(e)).map((e) => e.name);
}

export async function filesIn(repo: Repo, commit: Oid, segments: string[]): Promise<string[]> {
  const c = await repo.commit(commit);
  if (!c) return [];
  const entry = segments.length ? await repo.entryAt(c.tree, segments) : { oid: c.tree, dir: true };
  if (!entry?.dir) return [];
  const tree = await repo.tree(entry.oid);
  return tree.entries.filter((e) => !isDir(e)).map((e) => e.name);
}
