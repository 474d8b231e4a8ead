import * as git from "isomorphic-git";
import type { FsClient } from "isomorphic-git";
import { FileSystem } from "isomorphic-git/models";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { createHash } from "node:crypto";
import { gitFs } from "./git-fs";
import { CorruptRepositoryError } from "./errors";
import type { Oid } from "./types";

/**
 * Object I/O. A loose object is one zlib-deflated file (objects/ab/cdef…), read here directly with
 * node's zlib; packed objects, and every write, go through isomorphic-git. New objects are hashed
 * and deflated here before isomorphic-git stores them: its own paths run each object through web
 * streams and a JavaScript inflater, a millisecond or more per object, so a cold index of 10,000
 * notes took seconds and one save cost more than `git commit`.
 */

export type ObjectType = "blob" | "tree" | "commit" | "tag";
export type GitObject = { type: ObjectType; content: Buffer };

export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
const HEX_OID = /^[0-9a-f]{40}$/;
const TYPES = new Set<string>(["blob", "tree", "commit", "tag"]);
/** How long one listing of objects/pack is trusted; a read that misses re-lists at once. */
const PACK_LIST_MS = 1000;
const LARGE_OBJECT = 64 * 1024;
// One shared error: isomorphic-git only looks at its code, and building a stack per miss is slow.
const NOT_LOOSE = Object.assign(new Error("ENOENT: object is not loose"), { code: "ENOENT" });

export function hashObject(type: ObjectType, content: Uint8Array): { oid: Oid; wrapped: Buffer } {
  const wrapped = Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
  return { oid: createHash("sha1").update(wrapped).digest("hex"), wrapped };
}

export class ObjectDb {
  /** isomorphic-git's cache: keeps pack indexes (and packs) between reads. */
  private readonly packCache = {};
  private readonly iso: FsClient;
  private readonly packDir: string;
  /** Loose paths just found missing: isomorphic-git's own loose lookup for them fails at once. */
  private readonly packedOnly = new Set<string>();
  private packList: { at: number; list: Promise<string[]> } | null = null;
  readonly counters = { objectsRead: 0, objectsWritten: 0 };

  constructor(readonly gitdir: string) {
    this.packDir = path.join(gitdir, "objects", "pack");
    const gitdirStat = fs.promises.stat(gitdir);
    gitdirStat.catch(() => undefined);
    // One wrapped file system for every call (isomorphic-git re-wraps a plain one on each call), with
    // the lookups it repeats per object answered from memory: the gitdir's stat and the pack listing.
    this.iso = new FileSystem({
      promises: {
        ...gitFs.promises,
        readFile: (file: string, options?: unknown) =>
          this.packedOnly.has(file) ? Promise.reject(NOT_LOOSE) : gitFs.promises.readFile(file, options as never),
        readdir: (dir: string, options?: unknown) => (dir === this.packDir ? this.listPacks() : fs.promises.readdir(dir, options as never)),
        stat: (file: string) => (file === gitdir ? gitdirStat : fs.promises.stat(file)),
      },
    }) as unknown as FsClient;
  }

  /** The object, or null when the repository does not have it. */
  async read(oid: Oid): Promise<GitObject | null> {
    if (oid === EMPTY_TREE) return { type: "tree", content: Buffer.alloc(0) };
    if (!HEX_OID.test(oid)) return null;
    const file = path.join(this.gitdir, "objects", oid.slice(0, 2), oid.slice(2));
    const loose = this.readLoose(oid, file);
    if (loose) return loose;
    this.packedOnly.add(file);
    try {
      const found = await this.readPacked(oid);
      if (found) return found;
      // Not in any pack we listed: a push or gc may have just added one.
      this.forgetPackList();
      return await this.readPacked(oid, true);
    } finally {
      this.packedOnly.delete(file);
    }
  }

  private readLoose(oid: Oid, file: string): GitObject | null {
    // Synchronous on purpose: a loose object is a few kB, and fs.promises.readFile's four thread-pool
    // round trips (open, fstat, read, close) cost more than the read itself. existsSync does not
    // throw, so the miss for a packed object costs no exception.
    if (!fs.existsSync(file)) return null;
    let deflated: Buffer;
    try {
      deflated = fs.readFileSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return null; // pruned between the two calls
      throw e;
    }
    this.counters.objectsRead++;
    return unwrap(oid, zlib.inflateSync(deflated));
  }

  private async readPacked(oid: Oid, fresh = false): Promise<GitObject | null> {
    let result: { format: string; type?: string; object: unknown };
    try {
      result = await git.readObject({ fs: this.iso, gitdir: this.gitdir, oid, format: "content", cache: this.packCache });
    } catch (e) {
      if ((e as { code?: string }).code === "NotFoundError") return null;
      // A pack named in a stale listing may have been removed by `git gc`: one retry with a fresh listing.
      if (fresh) throw e;
      this.forgetPackList();
      return this.readPacked(oid, true);
    }
    this.counters.objectsRead++;
    const data = Buffer.from(result.object as Uint8Array);
    if (result.format === "content") return { type: checkType(oid, result.type), content: data };
    return unwrap(oid, result.format === "deflated" ? zlib.inflateSync(data) : data);
  }

  private listPacks(): Promise<string[]> {
    if (this.packList && Date.now() - this.packList.at < PACK_LIST_MS) return this.packList.list;
    const list = fs.promises.readdir(this.packDir).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return [];
      throw e;
    });
    this.packList = { at: Date.now(), list };
    return list;
  }

  private forgetPackList(): void {
    this.packList = null;
  }

  /**
   * The one object whose id starts with `prefix` (4 to 39 hex digits), loose or packed, as git
   * expands an abbreviated id; null when none or more than one does.
   */
  async expand(prefix: string): Promise<Oid | null> {
    if (!/^[0-9a-f]{4,39}$/.test(prefix)) return null;
    try {
      return await git.expandOid({ fs: this.iso, gitdir: this.gitdir, oid: prefix, cache: this.packCache });
    } catch {
      return null; // not found, or ambiguous
    }
  }

  async readType(oid: Oid, type: ObjectType): Promise<Buffer | null> {
    const object = await this.read(oid);
    if (object === null) return null;
    if (object.type !== type) throw new CorruptRepositoryError(`object ${oid} is a ${object.type}, not a ${type}`);
    return object.content;
  }

  async write(type: ObjectType, content: Uint8Array): Promise<Oid> {
    const { oid, wrapped } = hashObject(type, content);
    // Level 1 is git's default for loose objects. A large object here is the notes/ tree of a big
    // archive (400 kB at 10,000 notes, mostly binary ids that barely compress): storing it takes a
    // fraction of a millisecond where compressing costs several on every save; `git gc` packs it anyway.
    const deflated = zlib.deflateSync(wrapped, { level: wrapped.length > LARGE_OBJECT ? 0 : 1 });
    await git.writeObject({ fs: this.iso, gitdir: this.gitdir, oid, object: deflated, format: "deflated" });
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
