import { createHash } from "node:crypto";
import path from "node:path";
import { inspectAsset } from "@/lib/assets/inspect";
import { assetLimits } from "@/lib/assets/limits";
import { prepareAsset } from "@/lib/assets/prepare";
import type { AssetFacts, ImageExt } from "@/lib/rules/images";

/**
 * Images a record links by relative path (`![The flow](img/flow.png)`), made assets of the archive
 * the way the studio's upload makes them (lib/assets/prepare.ts: type read from the bytes, size
 * and pixel limits, metadata stripped, SVG sanitised), named by their git blob id under the note's
 * folder (`assets/<id>/<blob>.<ext>`), and committed with the version of the record that shows them.
 */

/** A prepared image: the bytes the archive stores, their blob id and type, and what content:check will find in them. */
export type ImportedImage = { ok: true; bytes: Buffer; blob: string; ext: ImageExt; facts: AssetFacts } | { ok: false; reason: string };

/**
 * The source path an image link names, relative to the record's folder; null for a link that
 * leaves the source (`../../x.png` above its top) or names no file.
 */
export function imagePath(recordPath: string, target: string): string | null {
  let t = (target.split("#")[0] ?? "").split("?")[0] ?? "";
  try {
    t = decodeURIComponent(t);
  } catch {
    // A malformed escape is a file name like any other.
  }
  if (!t || t.startsWith("/") || t.includes("\0")) return null;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(recordPath), t));
  return joined === "." || joined.startsWith("../") || joined === ".." ? null : joined;
}

/** Git's id of a blob with these bytes (the asset's name is its content's hash). */
export function blobId(bytes: Uint8Array): string {
  return createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Images prepared once per content (a record revised 50 times shows the same diagram 50 times). */
export function imagePreparer(): (bytes: Buffer, name: string) => Promise<ImportedImage> {
  const done = new Map<string, Promise<ImportedImage>>();
  return (bytes, name) => {
    const key = blobId(bytes);
    let found = done.get(key);
    if (!found) done.set(key, (found = prepare(bytes, name)));
    return found;
  };
}

async function prepare(input: Buffer, name: string): Promise<ImportedImage> {
  try {
    const prepared = await prepareAsset(new Uint8Array(input), JSON.stringify(name), assetLimits());
    const blob = blobId(prepared.bytes);
    return { ok: true, bytes: prepared.bytes, blob, ext: prepared.ext, facts: await inspectAsset(prepared.bytes, blob) };
  } catch (e) {
    return { ok: false, reason: (e as Error).message };
  }
}
