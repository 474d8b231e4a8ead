import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { UPLOAD_ID } from "@/lib/validations/import";
import { unpackZip, type Unpacked, type ZipLimits } from "./zip";

/**
 * Zips uploaded from the studio's Import page, unpacked in the server's temporary folder until the
 * import that reads them has run (or an hour has passed): `<tmp>/field-notes-import-uploads/<id>/<name>`,
 * where `<name>` is the zip's file name without `.zip`, which is how the import names the source (a
 * local path never reaches a note).
 */

const ROOT = path.join(os.tmpdir(), "field-notes-import-uploads");
const KEEP_MS = 60 * 60 * 1000;

export type Upload = Unpacked & { id: string; name: string };

/** The zip's name as the source's label: `team adrs (1).zip` → `team-adrs-1`. */
export function uploadName(fileName: string): string {
  const base = path.basename(fileName.replace(/\\/g, "/")).replace(/\.zip$/i, "");
  return (
    base
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[.-]+|-+$/g, "")
      .slice(0, 60) || "upload"
  );
}

/** Unpacks the zip under a new id; a refused zip leaves nothing behind. */
export async function saveUpload(bytes: Buffer, fileName: string, limits?: ZipLimits): Promise<Upload> {
  await sweep();
  const id = randomBytes(8).toString("hex");
  const name = uploadName(fileName);
  const dest = path.join(ROOT, id, name);
  await fs.mkdir(dest, { recursive: true });
  try {
    return { id, name, ...(await unpackZip(bytes, dest, limits)) };
  } catch (e) {
    await removeUpload(id);
    throw e;
  }
}

/** The unpacked folder of an upload, or null when there is none of that id. */
export async function uploadFolder(id: string): Promise<string | null> {
  if (!UPLOAD_ID.test(id)) return null;
  const [name] = await fs.readdir(path.join(ROOT, id)).catch(() => []);
  return name ? path.join(ROOT, id, name) : null;
}

export async function removeUpload(id: string): Promise<void> {
  if (UPLOAD_ID.test(id)) await fs.rm(path.join(ROOT, id), { recursive: true, force: true });
}

/** Uploads older than an hour go (a plan that was never run). */
async function sweep(): Promise<void> {
  const ids = await fs.readdir(ROOT).catch(() => []);
  const now = Date.now();
  for (const id of ids) {
    const stat = await fs.stat(path.join(ROOT, id)).catch(() => null);
    if (stat && now - stat.mtimeMs > KEEP_MS) await removeUpload(id);
  }
}
