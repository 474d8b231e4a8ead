import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Note } from "@/lib/notes/schema";
import type { Oid, Revision } from "@/lib/store/types";

/**
 * The read model of the last commit a server saw, on disk, so a restart reads and parses only the
 * notes changed since instead of all of them. Under `DATA_DIR/read-model/<build>/`, where <build>
 * is the app's build id: another build (another parser, another view) never reads it, and its
 * folder is deleted on start. Everything here is derived from git: deleting the folder loses
 * nothing but the next start's time.
 *
 * - `notes.ndjson`: one line per parsed note file, by blob id (a blob id names its text, so the
 *   line stays true for every commit that holds that blob), with the ids the note links to. Lines
 *   are appended as new blobs are seen, and the file is rewritten when most of it is stale.
 * - `head.json`: the commit, its published notes (id and blob) and their last-change revisions.
 *
 * Every line and the head carry a hash of their text: a torn append or a damaged file is skipped,
 * never trusted. A note line is what this build's parser made of the blob, so it is kept as is.
 */

export type ParsedFile = { ok: true; note: Note } | { ok: false; errors: { line: number; field: string; message: string }[] };
export type NoteLine = { blob: Oid; parsed: ParsedFile; links: string[] | null };
export type Head = {
  commit: Oid;
  /** Published note id → its blob at `commit`. */
  published: [string, Oid][];
  /** Published note id → the revision that last changed it, as of `commit`. */
  dates: [string, Revision][];
};
export type Persisted = { notes: Map<Oid, NoteLine>; head: Head | null };

const FORMAT = 2;
const NOTES = "notes.ndjson";
const HEAD = "head.json";
const OID = /^[0-9a-f]{40}$/;

// A check against damage (a torn append, a bad disk), not against an attacker: whoever can write
// DATA_DIR can write the repository itself. CRC-32 over the UTF-8 text, ten times cheaper than a
// cryptographic hash on a 25 MB file read at every start.
const digest = (text: string) => zlib.crc32(text).toString(16).padStart(8, "0");
const sealed = (value: unknown) => {
  const json = JSON.stringify(value);
  return `${digest(json)} ${json}`;
};
function unseal(line: string): unknown {
  if (line.indexOf(" ") !== 8) return undefined;
  const json = line.slice(9);
  if (digest(json) !== line.slice(0, 8)) return undefined;
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/** The folder for this build; null when there is no build to key it by (dev, tests, `next build` itself). */
export function folderFor(dataDir: string, build: string | null): string | null {
  return build && /^[\w.-]{1,80}$/.test(build) ? path.join(dataDir, "read-model", build) : null;
}

/** The running app's build id: Next's BUILD_ID in the dist folder, in production only. */
export function appBuild(): string | null {
  if (process.env.NODE_ENV !== "production" || process.env.NEXT_PHASE === "phase-production-build") return null;
  try {
    return fs.readFileSync(path.join(process.cwd(), process.env.NEXT_DIST_DIR || ".next", "BUILD_ID"), "utf8").trim() || null;
  } catch {
    return null;
  }
}

/** What a previous run of this build left; whatever is missing, stale or damaged is left out. */
export async function readPersisted(folder: string): Promise<Persisted> {
  removeOtherBuilds(folder);
  const notes = new Map<Oid, NoteLine>();
  const text = await fs.promises.readFile(path.join(folder, NOTES), "utf8").catch(() => "");
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const value = line ? unseal(line) : undefined;
    const note = asNoteLine(value);
    if (note) notes.set(note.blob, note);
    // The model loads behind the first requests (instrumentation.ts): let them through now and then.
    if (i % SLICE === SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
  }
  const headText = await fs.promises.readFile(path.join(folder, HEAD), "utf8").catch(() => "");
  const head = asHead(unseal(headText.trim()));
  // A head whose notes are not all in the notes file cannot rebuild its view: left out.
  const complete = head && head.published.every(([, blob]) => notes.get(blob)?.parsed.ok);
  return { notes, head: complete ? head : null };
}

function asNoteLine(value: unknown): NoteLine | null {
  if (!Array.isArray(value) || value.length !== 4 || value[0] !== FORMAT) return null;
  const [, blob, parsed, links] = value as [number, unknown, unknown, unknown];
  if (typeof blob !== "string" || !OID.test(blob) || !parsed || typeof parsed !== "object") return null;
  const p = parsed as { ok?: unknown; note?: { id?: unknown }; errors?: unknown };
  const shaped = p.ok === true ? typeof p.note?.id === "string" : p.ok === false && Array.isArray(p.errors);
  if (!shaped) return null;
  if (links !== null && !(Array.isArray(links) && links.every((l) => typeof l === "string"))) return null;
  return { blob, parsed: parsed as ParsedFile, links: links as string[] | null };
}

function asHead(value: unknown): Head | null {
  if (!value || typeof value !== "object") return null;
  const v = value as { format?: unknown; commit?: unknown; published?: unknown; revisions?: unknown; dates?: unknown };
  if (v.format !== FORMAT || typeof v.commit !== "string" || !OID.test(v.commit)) return null;
  if (!Array.isArray(v.published) || !Array.isArray(v.revisions) || !Array.isArray(v.dates)) return null;
  const revisions = v.revisions as Revision[];
  const pairs = (xs: unknown[]) => xs.every((x) => Array.isArray(x) && x.length === 2 && typeof x[0] === "string");
  if (!pairs(v.published) || !pairs(v.dates)) return null;
  if (!(v.dates as [string, unknown][]).every(([, i]) => typeof i === "number" && revisions[i])) return null;
  const dates = (v.dates as [string, number][]).map(([id, i]): [string, Revision] => [id, revisions[i]!]);
  return { commit: v.commit, published: v.published as Head["published"], dates };
}

function removeOtherBuilds(folder: string) {
  const parent = path.dirname(folder);
  let names: string[] = [];
  try {
    names = fs.readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    if (name !== path.basename(folder)) fs.rmSync(path.join(parent, name), { recursive: true, force: true });
  }
}

// Lines serialised per turn of the event loop: a 10,000-note write never holds a request up for long.
const SLICE = 200;

/**
 * Writes what the folder lacks: note lines for blobs it does not hold (appended; or, when the file
 * is mostly stale, a new file of the current notes only), then the head, replaced whole.
 * `written` is the set of blobs the notes file holds, kept by the caller between writes.
 */
export async function writePersisted(folder: string, written: Set<Oid>, current: NoteLine[], head: Head): Promise<void> {
  await fs.promises.mkdir(folder, { recursive: true });
  const file = path.join(folder, NOTES);
  // The file was deleted while the server ran (it is safe to): write it whole again.
  if (!fs.existsSync(file)) written.clear();
  const rewrite = written.size > 2 * current.length + 256;
  const fresh = rewrite ? current : current.filter((n) => !written.has(n.blob));
  const target = rewrite ? `${file}.${process.pid}.tmp` : file;
  if (rewrite) await fs.promises.writeFile(target, "");
  for (let i = 0; i < fresh.length; i += SLICE) {
    const chunk = fresh.slice(i, i + SLICE).map((n) => `${sealed([FORMAT, n.blob, n.parsed, n.links])}\n`);
    // A line torn by a crash has no newline: the first new line must not continue it.
    await fs.promises.appendFile(target, `${i === 0 ? "\n" : ""}${chunk.join("")}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (rewrite) {
    await fs.promises.rename(target, file);
    written.clear();
  }
  for (const n of fresh) written.add(n.blob);
  const headFile = path.join(folder, HEAD);
  const tmp = `${headFile}.${process.pid}.tmp`;
  // Dates name few distinct commits (one per commit since the notes last changed): each is stored once.
  const revisions: Revision[] = [];
  const index = new Map<Oid, number>();
  const dates = head.dates.map(([id, r]): [string, number] => {
    let i = index.get(r.commit);
    // Only the revision's own fields: a note's history entry also names its path and blob.
    if (i === undefined)
      index.set(
        r.commit,
        (i = revisions.push({ commit: r.commit, parents: r.parents, author: r.author, date: r.date, committed: r.committed, message: r.message }) - 1),
      );
    return [id, i];
  });
  await fs.promises.writeFile(tmp, `${sealed({ format: FORMAT, commit: head.commit, published: head.published, revisions, dates })}\n`);
  await fs.promises.rename(tmp, headFile);
}
