import fs from "node:fs/promises";
import path from "node:path";
import { CorruptRepositoryError, StoreRequestError } from "./errors";
import type { Oid } from "./types";

/**
 * Refs as git keeps them: a loose file `<gitdir>/<ref>` holding an id (or "ref: <other>"), else a
 * line in `packed-refs`. Read from disk on every call, so a push or a `git gc` by anyone is seen
 * on the next request; both files are small, so this costs two reads at most.
 */

export const OID = /^[0-9a-f]{40}$/;

/** Why `ref` is not a ref name git would accept for writing (git check-ref-format), or null. */
export function refNameProblem(ref: string): string | null {
  if (typeof ref !== "string" || !ref.startsWith("refs/")) return 'a ref name must start with "refs/"';
  if (/[\u0000-\u0020\u007f~^:?*[\\]/.test(ref)) return "a ref name cannot contain spaces, control characters or any of ~^:?*[\\";
  if (ref.includes("..") || ref.includes("@{")) return 'a ref name cannot contain ".." or "@{"';
  if (ref.endsWith("/") || ref.endsWith(".")) return 'a ref name cannot end with "/" or "."';
  for (const segment of ref.split("/")) {
    if (segment === "") return "a ref name cannot have an empty segment";
    if (segment.startsWith(".")) return 'a ref name segment cannot start with "."';
    if (segment.endsWith(".lock")) return 'a ref name segment cannot end with ".lock"';
  }
  return null;
}

export function checkRefName(ref: string): void {
  const problem = refNameProblem(ref);
  if (problem) throw new StoreRequestError(`${JSON.stringify(ref)}: ${problem}`);
}

export type RefValue = { oid: Oid } | { symbolic: string } | null;

/** The ref's own value: a loose file wins over packed-refs. Symbolic refs are not followed. */
export async function readRefValue(gitdir: string, ref: string): Promise<RefValue> {
  const loose = await readLoose(gitdir, ref);
  if (loose !== null) return loose;
  const packed = (await readPackedRefs(gitdir)).get(ref);
  return packed ? { oid: packed } : null;
}

async function readLoose(gitdir: string, ref: string): Promise<RefValue> {
  let text: string;
  try {
    text = await fs.readFile(path.join(gitdir, ref), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return null;
    throw e;
  }
  const value = text.trim();
  if (value.startsWith("ref: ")) return { symbolic: value.slice(5).trim() };
  if (OID.test(value)) return { oid: value };
  throw new CorruptRepositoryError(`ref ${ref} holds "${value.slice(0, 60)}", not a commit id`);
}

/** ref → id from packed-refs (peeled "^" lines are skipped; tags are peeled when resolved). */
export async function readPackedRefs(gitdir: string): Promise<Map<string, Oid>> {
  let text: string;
  try {
    text = await fs.readFile(path.join(gitdir, "packed-refs"), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw e;
  }
  const refs = new Map<string, Oid>();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
    const oid = line.slice(0, 40);
    const name = line.slice(41);
    if (OID.test(oid) && name) refs.set(name, oid);
  }
  return refs;
}

/** The id a ref points at, following symbolic refs (HEAD → refs/heads/main). */
export async function readRef(gitdir: string, ref: string): Promise<Oid | null> {
  let name = ref;
  for (let depth = 0; depth < 5; depth++) {
    const value = await readRefValue(gitdir, name);
    if (value === null) return null;
    if ("oid" in value) return value.oid;
    name = value.symbolic;
    if (refNameProblem(name) !== null) return null;
  }
  return null;
}

/** Every ref whose name starts with `prefix` ("refs/heads/drafts/"), loose and packed, sorted by name. */
export async function listRefNames(gitdir: string, prefix: string): Promise<string[]> {
  const names = new Set<string>();
  for (const name of (await readPackedRefs(gitdir)).keys()) if (name.startsWith(prefix)) names.add(name);
  const start = prefix.endsWith("/") ? prefix.slice(0, -1) : path.posix.dirname(prefix);
  if (start.startsWith("refs")) await walkLoose(gitdir, start, prefix, names);
  return [...names].sort();
}

async function walkLoose(gitdir: string, dir: string, prefix: string, out: Set<string>): Promise<void> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(path.join(gitdir, dir), { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return;
    throw e;
  }
  for (const entry of entries) {
    const name = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (prefix.startsWith(`${name}/`) || name.startsWith(prefix)) await walkLoose(gitdir, name, prefix, out);
    } else if (entry.isFile() && name.startsWith(prefix) && !entry.name.endsWith(".lock")) {
      out.add(name);
    }
  }
}
