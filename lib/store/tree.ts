import { CorruptRepositoryError } from "./errors";
import type { Oid } from "./types";

/**
 * A git tree object held both as entries and as the exact bytes of each entry, so that changing one
 * entry of a 10,000-entry tree copies bytes instead of re-encoding every name and id, and entries
 * written by other tools (any mode, any name bytes) are written back unchanged.
 */

export const FILE_MODE = "100644";
export const DIR_MODE = "40000"; // as stored; "040000" is only how git prints it

export type TreeEntry = { readonly mode: string; readonly name: string; readonly oid: Oid; readonly bytes: Buffer };

export const isDir = (e: TreeEntry) => e.mode === DIR_MODE || e.mode === "040000";

export function treeEntry(mode: string, name: string, oid: Oid): TreeEntry {
  return { mode, name, oid, bytes: Buffer.concat([Buffer.from(`${mode} ${name}\0`, "utf8"), Buffer.from(oid, "hex")]) };
}

/** Git sorts a tree as if every folder name ended with "/", comparing UTF-8 bytes. */
const keyOf = (e: TreeEntry) => (isDir(e) ? `${e.name}/` : e.name);

export function compareKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order differs from UTF-8 order only when a surrogate (a code point above U+FFFF)
    // meets a unit in U+E000..U+FFFF; the surrogate is the larger code point.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && x >= 0xd800 && y >= 0xd800) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/**
 * A tree object that is only looked into, kept as its bytes and where each entry starts: a file's
 * history reads one old notes/ tree per commit, and a 10,000-entry tree is 400 kB of bytes and 40 kB
 * of offsets here, where a parsed Tree holds an object, three strings and a Buffer view per entry
 * (several MB). Lookups are a binary search in git's order over the bytes.
 */
export class RawTree {
  private readonly starts: Uint32Array;

  constructor(
    oid: Oid,
    private readonly raw: Buffer,
  ) {
    const starts: number[] = [];
    let i = 0;
    while (i < raw.length) {
      const space = raw.indexOf(0x20, i);
      const nul = space < 0 ? -1 : raw.indexOf(0, space + 1);
      if (space < 0 || nul < 0 || nul + 21 > raw.length) throw new CorruptRepositoryError(`tree ${oid} is truncated or malformed`);
      starts.push(i);
      i = nul + 21;
    }
    starts.push(raw.length);
    this.starts = Uint32Array.from(starts);
  }

  /** What this costs in memory, about: the bytes and the offsets. */
  get bytes(): number {
    return this.raw.length + this.starts.byteLength;
  }

  /** The entry named `name` (a file, else a folder), as findEntry answers. */
  find(name: string): { mode: string; oid: Oid } | null {
    const file = this.search(Buffer.from(name, "utf8"), false);
    if (file >= 0) return this.entry(file);
    const dir = this.search(Buffer.from(`${name}/`, "utf8"), true);
    return dir >= 0 ? this.entry(dir) : null;
  }

  private entry(k: number): { mode: string; oid: Oid } {
    const start = this.starts[k]!;
    const space = this.raw.indexOf(0x20, start);
    const nul = this.raw.indexOf(0, space + 1);
    return { mode: this.raw.toString("latin1", start, space), oid: this.raw.toString("hex", nul + 1, nul + 21) };
  }

  /** Index of the entry whose git key ("name", or "name/" for a folder) is `key` and whose kind is `dir`; -1 if none. */
  private search(key: Buffer, dir: boolean): number {
    let lo = 0;
    let hi = this.starts.length - 2;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = this.compareAt(mid, key);
      if (c === 0) return this.isDirAt(mid) === dir ? mid : -1;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  private isDirAt(k: number): boolean {
    const start = this.starts[k]!;
    const mode = this.raw.toString("latin1", start, this.raw.indexOf(0x20, start));
    return mode === DIR_MODE || mode === "040000";
  }

  /** Entry k's git key compared with `key`, byte by byte (UTF-8 order is git's order). */
  private compareAt(k: number, key: Buffer): number {
    const start = this.starts[k]!;
    const space = this.raw.indexOf(0x20, start);
    const nameEnd = this.raw.indexOf(0, space + 1);
    const nameLength = nameEnd - space - 1;
    const length = nameLength + (this.isDirAt(k) ? 1 : 0);
    const n = Math.min(length, key.length);
    for (let i = 0; i < n; i++) {
      const byte = i < nameLength ? this.raw[space + 1 + i]! : 0x2f;
      if (byte !== key[i]) return byte - key[i]!;
    }
    return length - key.length;
  }
}

export class Tree {
  private offsets: Uint32Array | null = null;

  /** `raw` is the tree object's content when known (read from disk, or spliced by `edit`). */
  private constructor(
    readonly entries: readonly TreeEntry[],
    private raw: Buffer | null = null,
  ) {}

  static readonly empty = new Tree([], Buffer.alloc(0));

  static parse(oid: Oid, raw: Buffer): Tree {
    const entries: TreeEntry[] = [];
    let i = 0;
    while (i < raw.length) {
      const space = raw.indexOf(0x20, i);
      const nul = space < 0 ? -1 : raw.indexOf(0, space + 1);
      if (space < 0 || nul < 0 || nul + 21 > raw.length) throw new CorruptRepositoryError(`tree ${oid} is truncated or malformed`);
      entries.push({
        mode: raw.toString("latin1", i, space),
        name: raw.toString("utf8", space + 1, nul),
        oid: raw.toString("hex", nul + 1, nul + 21),
        bytes: raw.subarray(i, nul + 21),
      });
      i = nul + 21;
    }
    return new Tree(entries, raw);
  }

  static of(entries: TreeEntry[]): Tree {
    return Tree.empty.edit(entries.map((e) => ({ name: e.name, entry: e })));
  }

  /** The tree object's content: every entry's bytes, in order. */
  serialize(): Buffer {
    this.raw ??= Buffer.concat(this.entries.map((e) => e.bytes));
    return this.raw;
  }

  /** Where each entry starts in `serialize()`, plus the end. */
  private byteOffsets(): Uint32Array {
    if (!this.offsets) {
      const offsets = new Uint32Array(this.entries.length + 1);
      for (let i = 0; i < this.entries.length; i++) offsets[i + 1] = offsets[i]! + this.entries[i]!.bytes.length;
      this.offsets = offsets;
    }
    return this.offsets;
  }

  get(name: string): TreeEntry | undefined {
    const i = this.indexOf(name);
    return i < 0 ? undefined : this.entries[i];
  }

  /** Binary search: a name is either a file (key "name") or a folder (key "name/"). */
  indexOf(name: string): number {
    const asFile = this.search(name);
    if (asFile >= 0 && !isDir(this.entries[asFile]!)) return asFile;
    const asDir = this.search(`${name}/`);
    if (asDir >= 0 && isDir(this.entries[asDir]!)) return asDir;
    return -1;
  }

  private search(key: string): number {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareKeys(keyOf(this.entries[mid]!), key);
      if (c === 0) return mid;
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * A new tree with each named entry replaced, added, or (entry null) removed. Names must be
   * distinct. The new content is spliced from runs of this tree's bytes, so changing one entry of
   * a large tree copies two slices rather than re-assembling every entry.
   */
  edit(changes: { name: string; entry: TreeEntry | null }[]): Tree {
    const dropped = new Set<number>();
    const added: TreeEntry[] = [];
    for (const { name, entry } of changes) {
      const at = this.indexOf(name);
      if (at >= 0) dropped.add(at);
      if (entry) added.push(entry);
    }
    added.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    const raw = this.serialize();
    const offsets = this.byteOffsets();
    const out: TreeEntry[] = [];
    const parts: Buffer[] = [];
    let run = -1; // first old entry of the current run of kept entries
    const flush = (end: number) => {
      if (run >= 0) parts.push(raw.subarray(offsets[run], offsets[end]));
      run = -1;
    };
    let j = 0;
    for (let i = 0; i < this.entries.length; i++) {
      if (dropped.has(i)) {
        flush(i);
        continue;
      }
      const old = this.entries[i]!;
      if (j < added.length && compareKeys(keyOf(added[j]!), keyOf(old)) < 0) {
        flush(i);
        while (j < added.length && compareKeys(keyOf(added[j]!), keyOf(old)) < 0) {
          parts.push(added[j]!.bytes);
          out.push(added[j++]!);
        }
      }
      if (run < 0) run = i;
      out.push(old);
    }
    flush(this.entries.length);
    for (; j < added.length; j++) {
      parts.push(added[j]!.bytes);
      out.push(added[j]!);
    }
    return new Tree(out, Buffer.concat(parts));
  }
}
