import { eachLimit } from "./concurrency";
import { StoreRequestError } from "./errors";
import { checkPath } from "./paths";
import type { Repo } from "./repo";
import { DIR_MODE, FILE_MODE, Tree, isDir, treeEntry, type TreeEntry } from "./tree";
import type { FileChanges, Oid } from "./types";

/**
 * Applying a change set to a tree without a working tree or an index: only the folders along the
 * changed paths are read and rewritten, every other subtree is reused by id. So a save costs the
 * same with 100 notes as with 10,000 (apart from copying the bytes of the one large notes/ tree).
 */

const WRITE_CONCURRENCY = 16;

/** New content as text (what callers send) or bytes (files seeded from disk), or null to delete. */
export type Content = string | Uint8Array | null;
type Folder = { files: Map<string, Content>; folders: Map<string, Folder> };

const folder = (): Folder => ({ files: new Map(), folders: new Map() });

/** The change set as a folder tree; paths are validated and contradictions refused. */
export function planChanges(changes: FileChanges | Record<string, Content>): Folder {
  if (changes === null || typeof changes !== "object" || Object.keys(changes).length === 0) {
    throw new StoreRequestError("the change set is empty: a commit must add, change or delete at least one file");
  }
  const root = folder();
  for (const [path, content] of Object.entries(changes)) {
    if (content !== null && typeof content !== "string" && !(content instanceof Uint8Array)) {
      throw new StoreRequestError(`the new content of "${path}" must be text, bytes or null`);
    }
    const segments = checkPath(path);
    let at = root;
    for (const name of segments.slice(0, -1)) {
      if (at.files.has(name)) throw new StoreRequestError(`"${path}" needs a folder where the change set also writes a file`);
      let next = at.folders.get(name);
      if (!next) at.folders.set(name, (next = folder()));
      at = next;
    }
    const name = segments[segments.length - 1]!;
    if (at.folders.has(name)) throw new StoreRequestError(`"${path}" is written as a file and used as a folder in the same change set`);
    at.files.set(name, content);
  }
  return root;
}

/** The new tree id, or null when the folder ends up empty (git keeps no empty folders). */
export async function applyChanges(repo: Repo, treeOid: Oid | null, plan: Folder, where = ""): Promise<Oid | null> {
  const tree = treeOid ? await repo.tree(treeOid) : Tree.empty;
  const edits: { name: string; entry: TreeEntry | null }[] = [];

  await eachLimit([...plan.files], WRITE_CONCURRENCY, async ([name, content]) => {
    const existing = tree.get(name);
    if (existing && isDir(existing)) throw new StoreRequestError(`"${where}${name}" is a folder, not a file`);
    if (content === null) {
      if (existing) edits.push({ name, entry: null });
      return;
    }
    const blob = await repo.db.write("blob", typeof content === "string" ? Buffer.from(content, "utf8") : content);
    const mode = existing?.mode === "100755" ? existing.mode : FILE_MODE;
    if (existing?.oid !== blob || existing.mode !== mode) edits.push({ name, entry: treeEntry(mode, name, blob) });
  });

  for (const [name, sub] of plan.folders) {
    const existing = tree.get(name);
    if (existing && !isDir(existing)) throw new StoreRequestError(`"${where}${name}" is a file, so nothing can be written inside it`);
    const oid = await applyChanges(repo, existing?.oid ?? null, sub, `${where}${name}/`);
    if (oid === null) {
      if (existing) edits.push({ name, entry: null });
    } else if (oid !== existing?.oid) {
      edits.push({ name, entry: treeEntry(DIR_MODE, name, oid) });
    }
  }

  if (edits.length === 0) return tree.entries.length === 0 ? null : treeOid;
  const next = tree.edit(edits);
  return next.entries.length === 0 ? null : repo.writeTree(next);
}
