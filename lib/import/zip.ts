import fs from "node:fs/promises";
import path from "node:path";
import yauzl from "yauzl";

/**
 * An uploaded zip of a folder of records, unpacked into a folder the import then reads as a plain
 * folder (./source.ts). Refused whole, before anything is imported: an entry that points outside
 * the folder (`../`, an absolute path), a symbolic link, an encrypted entry, more entries or more
 * unpacked bytes than the limits (a zip bomb: yauzl holds every entry to the size its directory
 * declares, and the bytes are counted again as they are written). A `.git` folder inside is left
 * out (a repository's configuration runs commands; an upload is imported as a plain folder).
 */

export type ZipLimits = { maxBytes: number; maxUnpackedBytes: number; maxEntries: number };

export const ZIP_LIMITS: ZipLimits = { maxBytes: 20 * 1024 * 1024, maxUnpackedBytes: 100 * 1024 * 1024, maxEntries: 5_000 };

/** Why a zip was refused; `entry` names the entry when one is to blame. */
export class ZipRefusedError extends Error {
  constructor(
    message: string,
    readonly entry: string | null = null,
  ) {
    super(message);
    this.name = "ZipRefusedError";
  }
}

export type Unpacked = {
  /** Files written, relative to the destination. */
  files: number;
  bytes: number;
  /** Entries left out (a `.git` folder, macOS's `__MACOSX`), by their top folder. */
  leftOut: string[];
};

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const LEFT_OUT = new Set([".git", "__MACOSX"]);

export async function unpackZip(bytes: Buffer, dest: string, limits: ZipLimits = ZIP_LIMITS): Promise<Unpacked> {
  if (bytes.length > limits.maxBytes) throw new ZipRefusedError(`the zip is ${bytes.length} bytes, over the limit of ${limits.maxBytes}`);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false });
  } catch (e) {
    throw new ZipRefusedError(`the file is not a zip archive that can be read (${(e as Error).message})`);
  }
  try {
    if (zip.entryCount > limits.maxEntries) throw new ZipRefusedError(`the zip holds ${zip.entryCount} entries, over the limit of ${limits.maxEntries}`);
    const names = await entryNames(zip, limits);
    const strip = commonTop(names.map((n) => n.name));
    const out: Unpacked = { files: 0, bytes: 0, leftOut: [] };
    for (const { entry, name } of names) {
      const rel = strip ? name.slice(strip.length + 1) : name;
      if (!rel || rel.endsWith("/")) continue;
      const top = rel.split("/").find((segment) => LEFT_OUT.has(segment));
      if (top) {
        if (!out.leftOut.includes(top)) out.leftOut.push(top);
        continue;
      }
      const target = path.resolve(dest, rel);
      if (!target.startsWith(path.resolve(dest) + path.sep)) throw new ZipRefusedError(`the entry "${name}" points outside the zip's folder`, name);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const data = await readEntry(zip, entry, limits.maxUnpackedBytes - out.bytes);
      // "wx": a second entry of the same name is refused, never written over the first.
      await fs.writeFile(target, data, { flag: "wx" }).catch((e: NodeJS.ErrnoException) => {
        if (e.code === "EEXIST") throw new ZipRefusedError(`the entry "${name}" is in the zip twice`, name);
        throw e;
      });
      out.files++;
      out.bytes += data.length;
    }
    return out;
  } finally {
    zip.close();
  }
}

type Named = { entry: yauzl.Entry; name: string };

/** Every entry, each checked before any is unpacked: names, kinds and declared sizes. */
async function entryNames(zip: yauzl.ZipFile, limits: ZipLimits): Promise<Named[]> {
  const named: Named[] = [];
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.startsWith("/") || /^[a-z]:/i.test(name) || name.split("/").includes("..")) {
        throw new ZipRefusedError(`the entry "${name}" points outside the zip's folder`, name);
      }
      if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
        throw new ZipRefusedError(`the entry "${name}" is a symbolic link; zip the files themselves`, name);
      }
      if (entry.isEncrypted()) throw new ZipRefusedError(`the entry "${name}" is encrypted`, name);
      if (!name.endsWith("/") && !entry.canDecodeFileData()) {
        throw new ZipRefusedError(`the entry "${name}" is compressed with a method the import does not read (store or deflate only)`, name);
      }
      declared += entry.uncompressedSize;
      if (declared > limits.maxUnpackedBytes) {
        throw new ZipRefusedError(`the zip unpacks to more than ${limits.maxUnpackedBytes} bytes (the limit); "${name}" passes it`, name);
      }
      named.push({ entry, name });
    }
  } catch (e) {
    if (e instanceof ZipRefusedError) throw e;
    // yauzl's own refusals: "invalid relative path: ../x", "absolute path: /x", a damaged directory.
    const message = (e as Error).message;
    const outside = /^(invalid relative path|absolute path): (.*)$/.exec(message);
    if (outside) throw new ZipRefusedError(`the entry "${outside[2]}" points outside the zip's folder`, outside[2] ?? null);
    throw new ZipRefusedError(`the zip cannot be read: ${message}`);
  }
  return named;
}

/** The one folder every entry is in (a zip of a folder), or null. */
function commonTop(names: readonly string[]): string | null {
  const tops = new Set(names.map((n) => (n.includes("/") ? n.split("/")[0] : "")));
  const [top] = [...tops];
  return tops.size === 1 && top ? top : null;
}

/** An entry's bytes, refused once they pass `room` (the bytes left under the unpacked limit). */
async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, room: number): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > room) {
        stream.destroy();
        throw new ZipRefusedError(`the zip unpacks to more than its limit; "${entry.fileName}" passes it`, entry.fileName);
      }
      parts.push(chunk);
    }
  } catch (e) {
    if (e instanceof ZipRefusedError) throw e;
    throw new ZipRefusedError(`the entry "${entry.fileName}" cannot be unpacked: ${(e as Error).message}`, entry.fileName);
  }
  return Buffer.concat(parts);
}
