import { execFile, spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { scanText } from "@/lib/rules/archive-policy";

/**
 * The source of an import: a git repository (a path or a URL git can clone) read with native git,
 * or a plain folder. This module reads it and nothing else; it never touches the content
 * repository (that is lib/store's, through ./write.ts).
 */

const run = promisify(execFile);
const MAX_BUFFER = 1 << 30;
const CLONE_TIMEOUT_MS = 10 * 60_000;

export type SourceChange = { status: "A" | "M" | "D" | "R"; path: string; from?: string };

export type SourceCommit = {
  sha: string;
  author: { name: string; email: string };
  /** Seconds since the epoch and the author's timezone ("+0200"), as git stored them. */
  seconds: number;
  tz: string;
  subject: string;
  changes: SourceChange[];
};

export type Source = {
  /**
   * How notes name the source (provenance, the phase's description): a URL without credentials, or
   * a name only (the repository's or the folder's last segment) where the archive policy would
   * refuse the address: a local path, a URL on localhost or a private network. Re-runs find their
   * records by it, so the same source always gets the same label.
   */
  label: string;
  /** How the report names it: the URL without credentials, or the label. */
  shown: string;
  gitdir: string | null;
  dir: string;
  /** Remove a temporary clone. */
  close(): Promise<void>;
};

/** The folders records usually live in, in the order they are looked for. */
export const USUAL_FOLDERS = [
  "doc/adr",
  "docs/adr",
  "docs/decisions",
  "architecture-decision-record",
  "adr",
  "decisions",
  "docs/architecture/decisions",
  "content",
];

const isRecordFile = (p: string) => /\.(md|markdown)$/i.test(p);

export async function openSource(source: string): Promise<Source> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/]+@[^:]+:/.test(source)) {
    const shown = source.replace(/\/\/[^@/]+@/, "//");
    const label = (await scanText("provenance.detail", shown)).length ? repositoryName(shown) : shown;
    const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "field-notes-import-"));
    const close = () => fs.rm(tmp, { recursive: true, force: true });
    try {
      // Never a prompt (a host asking for a password would hang the command), never the user's askpass.
      const env = { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_ASKPASS: "", SSH_ASKPASS: "" };
      await run("git", ["clone", "--quiet", "--bare", "--", source, tmp], { maxBuffer: MAX_BUFFER, env, timeout: CLONE_TIMEOUT_MS });
    } catch (e) {
      await close();
      throw new Error(`${shown}: could not clone the repository (${cloneFailure(e, source, shown)}); nothing was imported`);
    }
    return { label, shown, gitdir: tmp, dir: tmp, close };
  }
  // Paths given at run time (turbopackIgnore: the studio's routes bundle this; nothing here is a project file to trace).
  const dir = path.resolve(/*turbopackIgnore: true*/ source);
  const local = path.basename(dir);
  const stat = await fs.stat(dir).catch(() => null);
  if (!stat?.isDirectory()) throw new Error(`${source}: no such folder or repository`);
  const gitdir = await run("git", ["rev-parse", "--absolute-git-dir"], { cwd: dir })
    .then((r) => r.stdout.trim())
    .catch(() => null);
  // A folder inside some other repository is a plain folder unless it is that repository's top.
  const top = gitdir ? await run("git", ["rev-parse", "--is-bare-repository", "--show-toplevel"], { cwd: dir }).then((r) => r.stdout.trim().split("\n")) : null;
  const isRepo = gitdir !== null && (top?.[0] === "true" || path.resolve(/*turbopackIgnore: true*/ top?.[1] ?? "") === dir);
  return { label: local, shown: local, gitdir: isRepo ? gitdir : null, dir, close: async () => {} };
}

/** A clone URL's last path segment without `.git` ("http://10.0.0.5/team/shop.git" → "shop"). */
function repositoryName(url: string): string {
  const last =
    url
      .replace(/[/\\]+$/, "")
      .split(/[/:]/)
      .pop() ?? "";
  return last.replace(/\.git$/i, "") || "repository";
}

/** What git said about a failed clone, in one line, with the URL's credentials taken out. */
function cloneFailure(e: unknown, source: string, label: string): string {
  const stderr = (e as { stderr?: unknown }).stderr;
  const said = (typeof stderr === "string" && stderr.trim()) || (e as Error).message;
  const line =
    said
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .pop() ?? "git clone failed";
  return line
    .split(source)
    .join(label)
    .replace(/\/\/[^@/\s]+@/g, "//");
}

/** imports/<last part of the source's path>, e.g. imports/payments for ../payments or git@host:team/payments.git. */
export function branchName(source: string): string {
  const last = source.replace(/\/+$/, "").split(/[/:]/).pop() ?? "";
  return (
    last
      .replace(/\.git$/, "")
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^[.-]+/, "") || "source"
  );
}

/** Every file under `folder` at the tip (a repository's HEAD, or the folder as it is). */
export async function listFiles(source: Source, folder = ""): Promise<string[]> {
  if (source.gitdir) {
    const args = ["--git-dir", source.gitdir, "ls-tree", "-r", "--name-only", "-z", "HEAD", ...(folder ? ["--", folder] : [])];
    const out = await run("git", args, { maxBuffer: MAX_BUFFER }).catch(() => ({ stdout: "" }));
    return out.stdout.split("\0").filter(Boolean);
  }
  const base = path.join(source.dir, folder);
  const entries = await fs.readdir(base, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(source.dir, path.join(e.parentPath, e.name)).split(path.sep).join("/"));
}

/** `--path`, or the first usual folder that holds records (`content` only with ADR-like names), or the top when its files have ADR-like names. */
export async function findRecordsFolder(source: Source, given?: string): Promise<string> {
  if (given) {
    const files = (await listFiles(source, given)).filter(isRecordFile);
    if (!files.length) throw new Error(`${given}: no Markdown records in ${source.label}`);
    return given.replace(/\/+$/, "");
  }
  for (const folder of USUAL_FOLDERS) {
    const files = (await listFiles(source, folder)).filter(isRecordFile);
    const adrLike = files.filter((f) => /(^|\/)(adr[-_]?)?\d+[-_]/i.test(f));
    if (files.length && (folder !== "content" || adrLike.length)) return folder;
  }
  // A zip of the records folder itself: ADR-like names at the top.
  const top = (await listFiles(source)).filter((f) => !f.includes("/") && isRecordFile(f) && /^(adr[-_]?)?\d+[-_]/i.test(f));
  if (top.length) return ".";
  throw new Error(`${source.label}: no records found in ${USUAL_FOLDERS.join(", ")}; name the folder with --path`);
}

/** The records in `folder` at the tip: paths (relative to the source) of Markdown files. */
export async function recordFiles(source: Source, folder: string): Promise<string[]> {
  return (await listFiles(source, folder)).filter(isRecordFile).sort();
}

const SEP = "\u001e";
const FIELD = "\u001f";

/**
 * The commits that touched `folder`, oldest first, with what each did to its Markdown files
 * (renames followed, as `git log -M` sees them). `since` (a commit id) leaves out it and all before it.
 */
export async function sourceCommits(source: Source, folder: string, since?: string): Promise<SourceCommit[]> {
  if (!source.gitdir) return [];
  const args = [
    "--git-dir",
    source.gitdir,
    "log",
    "--reverse",
    "--first-parent",
    "-M",
    "--name-status",
    "-z",
    `--format=${SEP}%H${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%ai${FIELD}%s`,
  ];
  args.push(since ? `${since}..HEAD` : "HEAD", "--", folder);
  const { stdout } = await run("git", args, { maxBuffer: MAX_BUFFER });
  return stdout
    .split(SEP)
    .filter((c) => c.trim())
    .map(parseCommit)
    .filter((c) => c.changes.length);
}

function parseCommit(chunk: string): SourceCommit {
  // With -z git ends the format with NUL and a newline, then lists `status NUL path NUL`.
  const [head = "", rest = ""] = splitOnce(chunk, "\0\n");
  const [sha = "", name = "", email = "", at = "0", iso = "", subject = ""] = head.split(FIELD);
  const tz = /([+-]\d{4})$/.exec(iso.trim())?.[1] ?? "+0000";
  const tokens = rest.split("\0");
  const changes: SourceChange[] = [];
  for (let i = 0; i < tokens.length; ) {
    const code = (tokens[i++] ?? "").trim();
    if (!code) continue;
    if (code.startsWith("R") || code.startsWith("C")) {
      const from = tokens[i++] ?? "";
      const to = tokens[i++] ?? "";
      if (code.startsWith("C")) changes.push({ status: "A", path: to });
      else changes.push({ status: "R", path: to, from });
    } else {
      const p = tokens[i++] ?? "";
      changes.push({ status: code[0] === "D" ? "D" : code[0] === "A" ? "A" : "M", path: p });
    }
  }
  return {
    sha,
    author: { name, email },
    seconds: Number(at),
    tz,
    subject,
    changes: changes.filter((c) => isRecordFile(c.path) || (c.from && isRecordFile(c.from))),
  };
}

function splitOnce(s: string, sep: string): [string, string] {
  const i = s.indexOf(sep);
  return i < 0 ? [s, ""] : [s.slice(0, i), s.slice(i + sep.length)];
}

/** The tip commit of a repository source, or null for a folder. */
export async function headOf(source: Source): Promise<string | null> {
  if (!source.gitdir) return null;
  return (await run("git", ["--git-dir", source.gitdir, "rev-parse", "HEAD"])).stdout.trim();
}

/**
 * File contents, many at once: one `git cat-file --batch` for a repository (`rev` a commit id),
 * the file system for a folder (`rev` null). A missing file answers null.
 */
export async function readContents(source: Source, wanted: readonly { rev: string | null; path: string }[]): Promise<(Buffer | null)[]> {
  if (!source.gitdir || wanted.every((w) => w.rev === null)) {
    // Only files inside the folder: a link through a symbolic link that leaves it reads as missing.
    const top = await fs.realpath(source.dir);
    const inside = async (file: string) => {
      const real = await fs.realpath(file);
      return real.startsWith(top + path.sep) ? fs.readFile(real) : null;
    };
    return Promise.all(wanted.map((w) => inside(path.join(source.dir, w.path)).catch(() => null)));
  }
  const child = spawn("git", ["--git-dir", source.gitdir, "cat-file", "--batch"], { stdio: ["pipe", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`git cat-file exited with ${code}`))));
  });
  child.stdin.end(wanted.map((w) => `${w.rev}:${w.path}\n`).join(""));
  await done;
  const all = Buffer.concat(chunks);
  const out: (Buffer | null)[] = [];
  let at = 0;
  for (let i = 0; i < wanted.length; i++) {
    const nl = all.indexOf(10, at);
    const header = all.subarray(at, nl).toString("utf8");
    at = nl + 1;
    const m = /^[0-9a-f]+ (\w+) (\d+)$/.exec(header);
    if (!m) {
      out.push(null);
      continue;
    }
    const size = Number(m[2]);
    out.push(m[1] === "blob" ? Buffer.from(all.subarray(at, at + size)) : null);
    at += size + 1;
  }
  return out;
}
