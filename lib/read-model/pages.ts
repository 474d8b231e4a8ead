import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

/**
 * Pages the page cache (lib/http/page-cache.ts) rendered for main's commit, on disk beside the
 * read model, so a restarted server answers them at once for the same commit instead of waiting
 * for its read model and a render. Under `<read-model folder>/pages/<commit>/`, one file per page
 * (named by a hash of its cache key, which holds the kind, the origin and the URL): a line with the
 * key, the kind, the headers and a CRC-32 of the body, then the body.
 *
 * Only the folder of one commit is kept: writing a page of another commit deletes the others, so a
 * moved main never finds a page of its previous commit (the caller asks by main's current commit
 * anyway). The folder is keyed by the build with the rest of the read model, so another build
 * (other chunks, other markup) never reads it. Safe to delete at any time.
 */

export type Kind = "page" | "agent";
export type StoredPage = { kind: Kind; key: string; headers: [string, string][]; body: Buffer };

const FORMAT = 1;
const COMMIT = /^[0-9a-f]{40}$/;
const crc = (bytes: Buffer | string) => zlib.crc32(bytes).toString(16).padStart(8, "0");
/** Where the page of `key` (the page cache's "kind origin URL") is kept for `commit`. */
export const pageFile = (folder: string, commit: string, key: string) =>
  path.join(folder, "pages", commit, `${createHash("sha256").update(key).digest("hex").slice(0, 40)}.page`);

// The commit whose siblings this process already removed: once per commit, not per page.
let cleaned: string | null = null;

/** Keep `page` for `commit` (written whole or not at all: a temporary file renamed into place). */
export async function writePage(folder: string, commit: string, page: StoredPage): Promise<void> {
  if (!COMMIT.test(commit)) return;
  const file = pageFile(folder, commit, page.key);
  const dir = path.dirname(file);
  if (cleaned !== `${folder}\n${commit}`) {
    const parent = path.dirname(dir);
    for (const name of await fs.promises.readdir(parent).catch(() => [] as string[])) {
      if (name !== commit) await fs.promises.rm(path.join(parent, name), { recursive: true, force: true });
    }
    cleaned = `${folder}\n${commit}`;
  }
  await fs.promises.mkdir(dir, { recursive: true });
  const head = JSON.stringify({
    format: FORMAT,
    commit,
    key: page.key,
    kind: page.kind,
    headers: page.headers,
    body: crc(page.body),
    length: page.body.length,
  });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.promises.writeFile(tmp, Buffer.concat([Buffer.from(`${crc(head)} ${head}\n`, "utf8"), page.body]));
  await fs.promises.rename(tmp, file);
}

/** The page kept for exactly this commit and key; null when there is none, or it is damaged or another's. */
export async function readPage(folder: string, commit: string, key: string): Promise<StoredPage | null> {
  if (!COMMIT.test(commit)) return null;
  const bytes = await fs.promises.readFile(pageFile(folder, commit, key)).catch(() => null);
  if (!bytes) return null;
  const newline = bytes.indexOf(10);
  if (newline < 10) return null;
  const line = bytes.subarray(0, newline).toString("utf8");
  const json = line.slice(9);
  if (line[8] !== " " || crc(json) !== line.slice(0, 8)) return null;
  let head: { format?: unknown; commit?: unknown; key?: unknown; kind?: unknown; headers?: unknown; body?: unknown; length?: unknown };
  try {
    head = JSON.parse(json);
  } catch {
    return null;
  }
  const body = bytes.subarray(newline + 1);
  // The hash of the key names the file; the key itself, and the commit, must match too.
  if (head.format !== FORMAT || head.commit !== commit || head.key !== key || (head.kind !== "page" && head.kind !== "agent")) return null;
  if (head.length !== body.length || head.body !== crc(body)) return null;
  const headers = head.headers;
  if (!Array.isArray(headers) || !headers.every((h) => Array.isArray(h) && h.length === 2 && typeof h[0] === "string" && typeof h[1] === "string")) return null;
  return { kind: head.kind, key, headers: headers as [string, string][], body };
}

/** Tests: forget which commit's siblings were removed. */
export function forgetCleaned(): void {
  cleaned = null;
}
