import * as git from "isomorphic-git";
import zlib from "node:zlib";
import { createHash } from "node:crypto";
import { gitFs } from "./git-fs";
import { CorruptRepositoryError } from "./errors";
import type { Oid } from "./types";

/**
 * Object I/O: isomorphic-git finds and stores objects (loose files and packs). Loose objects are
 * requested still deflated and inflated with node's zlib, and new objects are hashed and deflated
 * here before isomorphic-git writes them: its own paths run every object through web streams,
 * which costs milliseconds per object and would make one save slower than `git commit`.
 */

export type ObjectType = "blob" | "tree" | "commit" | "tag";
export type GitObject = { type: ObjectType; content: Buffer };

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const TYPES = new Set<string>(["blob", "tree", "commit", "tag"]);

export function hashObject(type: ObjectType, content: Uint8Array): { oid: Oid; wrapped: Buffer } {
  const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  return { oid: createHash("sha1").update(wrapped).digest("hex"), wrapped };
}

export class ObjectDb {
  /** isomorphic-git's cache: keeps pack indexes (and packs) between reads. */
  private readonly packCache = {};
  readonly counters = { objectsRead: 0, objectsWritten: 0 };

  constructor(readonly gitdir: string) {}

  /** The object, or null when the repository does not have it. */
  async read(oid: Oid): Promise<GitObject | null> {
    if (oid === EMPTY_TREE) return { type: "tree", content: Buffer.alloc(0) };
    let result: { format: string; type?: string; object: unknown };
    try {
      result = await git.readObject({ fs: gitFs, gitdir: this.gitdir, oid, format: "deflated", cache: this.packCache });
    } catch (e) {
      if ((e as { code?: string }).code === "NotFoundError") return null;
      throw e;
    }
    this.counters.objectsRead++;
    const data = Buffer.from(result.object as Uint8Array);
    if (result.format === "content") return { type: checkType(oid, result.type), content: data };
    const wrapped = result.format === "deflated" ? zlib.inflateSync(data) : data;
    return unwrap(oid, wrapped);
  }

  async readType(oid: Oid, type: ObjectType): Promise<Buffer | null> {
    const object = await this.read(oid);
    if (object === null) return null;
    if (object.type !== type) throw new CorruptRepositoryError(`object ${oid} is a ${object.type}, not a ${type}`);
    return object.content;
  }

  async has(oid: Oid): Promise<boolean> {
    return (await this.read(oid)) !== null;
  }

  async write(type: ObjectType, content: Uint8Array): Promise<Oid> {
    const { oid, wrapped } = hashObject(type, content);
    // Level 1 is git's own default for loose objects: big trees compress fast, small ones barely differ.
    const deflated = zlib.deflateSync(wrapped, { level: 1 });
    await git.writeObject({ fs: gitFs, gitdir: this.gitdir, oid, object: deflated, format: "deflated" });
    this.counters.objectsWritten++;
    return oid;
  }
}

function checkType(oid: Oid, type: string | undefined): ObjectType {
  if (type === undefined || !TYPES.has(type)) throw new CorruptRepositoryError(`object ${oid} has an unknown type "${type}"`);
  return type as ObjectType;
}

function unwrap(oid: Oid, wrapped: Buffer): GitObject {
  const nul = wrapped.indexOf(0);
  const header = nul > 0 ? wrapped.toString("latin1", 0, nul) : "";
  const m = /^([a-z]+) (\d+)$/.exec(header);
  if (!m || Number(m[2]) !== wrapped.length - nul - 1) throw new CorruptRepositoryError(`object ${oid} has a malformed header`);
  // A loose object whose name is not its hash is a damaged file: refuse it rather than serve it.
  if (createHash("sha1").update(wrapped).digest("hex") !== oid) throw new CorruptRepositoryError(`object ${oid} does not match its hash`);
  return { type: checkType(oid, m[1]), content: wrapped.subarray(nul + 1) };
}
