import { serializeNote } from "@/lib/notes/markdown";
import { isPublishedStatus, type Note, type SectionKey, type Status } from "@/lib/notes/schema";
import { assetLimits } from "@/lib/assets/limits";
import { acceptWrite, type NoteWriteContext } from "@/lib/rules/accept-write";
import { assetPath, assetPathsOf } from "@/lib/rules/images";
import { readRecord, relativeLinks, type Format, type RelativeLink, type SourceRecord } from "./formats";
import { assignIds, linkResolver, type IdChoice, type IdRequest } from "./ids";
import { mapRecord, SECTION_MAP, type FieldFill } from "./mapping";
import { imagePath, imagePreparer, type ImportedImage } from "./images";
import { landStatus, type StatusChoice, type StatusTable } from "./status";

/**
 * From the source's commits (each with the record files it touched, as text) to the commits of
 * the content repository: ids, fields, statuses and links decided once for all records, then each
 * version of each record judged by the acceptance function before it is written. Pure apart from
 * the policy scanner's promise; the report lists every choice made.
 */

/** One file version a source commit left (text null: deleted), keyed by the record it belongs to (renames followed). */
export type FileVersion = { path: string; from?: string; bytes: Buffer | null };
export type InputCommit = {
  sha: string | null;
  author: { name: string; email: string };
  seconds: number;
  tz: string;
  subject: string;
  files: FileVersion[];
  /** The images its record versions link by relative path, as this commit holds them: source path → bytes, null when missing. */
  images?: ReadonlyMap<string, Buffer | null>;
};

export type Problem = { file: string; line: number; message: string; commit?: string };

export type RecordPlan = {
  file: string;
  names: string[];
  id: string;
  format: Format;
  status: StatusChoice;
  filled: FieldFill[];
  empty: string[];
  renumbered: string | null;
  sourceNumber: number | null;
};

export type OutputCommit = {
  sha: string | null;
  author: { name: string; email: string };
  seconds: number;
  tz: string;
  subject: string;
  /** notes/<id>.md → text, or null to delete. */
  notes: Map<string, string | null>;
  /** The notes' images, `assets/<id>/<blob>.<ext>` → bytes, or null to delete: in the commit of the version that shows them. */
  assets: Map<string, Buffer | null>;
};

/**
 * `commits`: the import branch, which holds the records that land published. `drafts`: each record
 * that lands as a draft, on its own draft branch (a draft is never on main), with its history.
 */
export type ImportPlan = { records: RecordPlan[]; skipped: Problem[]; problems: Problem[]; commits: OutputCommit[]; drafts: Map<string, OutputCommit[]> };

export type PlanOptions = {
  prefix: string | null;
  archivePrefix: string;
  taken: ReadonlySet<string>;
  nextOrder: number;
  phase: string;
  phases: readonly string[];
  table: StatusTable;
  /** Section headings mapped over the default table (`--section`). */
  sections?: Readonly<Record<string, SectionKey>>;
  sourceLabel: string;
  /** Notes of the archive already published (on main) before the import. */
  published: ReadonlySet<string>;
  /** Notes the import wrote before (a re-run): id → the note as the content repository holds it. */
  existing?: ReadonlyMap<string, Note>;
  /** Record key → id already given by an earlier run. */
  knownIds?: ReadonlyMap<string, string>;
  /** Notes edited in Field Notes since the last import: their new source versions are conflicts, never written. */
  conflicts?: ReadonlySet<string>;
};

/** A record larger than this is not read (the note's sections hold 100,000 characters each). */
export const RECORD_MAX_BYTES = 512 * 1024;

const UTF8 = new TextDecoder("utf-8", { fatal: true });

export function decode(file: string, bytes: Buffer): { ok: true; text: string } | { ok: false; problem: Problem } {
  if (bytes.length > RECORD_MAX_BYTES)
    return { ok: false, problem: { file, line: 1, message: `the record is ${bytes.length} bytes, over the limit of ${RECORD_MAX_BYTES}` } };
  try {
    return { ok: true, text: UTF8.decode(bytes) };
  } catch {
    // The line of the first byte that is not UTF-8.
    let good = 0;
    for (let n = bytes.length; n > 0; n--) {
      try {
        UTF8.decode(bytes.subarray(0, n));
        good = n;
        break;
      } catch {
        continue;
      }
    }
    const line = bytes.subarray(0, good).toString("latin1").split("\n").length;
    return { ok: false, problem: { file, line, message: "the file is not UTF-8 text" } };
  }
}

export async function planImport(input: readonly InputCommit[], opts: PlanOptions): Promise<ImportPlan> {
  const skipped: Problem[] = [];
  const problems: Problem[] = [];
  // 1. Records, renames followed: each file version under the key of the record it belongs to.
  const keyOf = new Map<string, string>();
  const versions: { commit: number; key: string; path: string; record: SourceRecord | null }[] = [];
  const links: { commit: InputCommit; index: number; path: string; links: RelativeLink[] }[] = [];
  const names = new Map<string, Set<string>>();
  input.forEach((c, i) => {
    for (const f of c.files) {
      // A rename keeps its record; on a re-run the record may be known by its earlier path only.
      const key = (f.from && keyOf.get(f.from)) || keyOf.get(f.path) || f.from || f.path;
      if (f.from) keyOf.delete(f.from);
      if (f.bytes === null) {
        keyOf.delete(f.path);
        versions.push({ commit: i, key, path: f.path, record: null });
        continue;
      }
      keyOf.set(f.path, key);
      (names.get(key) ?? names.set(key, new Set()).get(key)!).add(f.path);
      const text = decode(f.path, f.bytes);
      if (!text.ok) {
        problems.push({ ...text.problem, ...(c.sha ? { commit: c.sha } : {}) });
        continue;
      }
      const read = readRecord(f.path, text.text);
      if (!read.ok) {
        skipped.push({ file: f.path, line: read.problem.line, message: read.problem.reason, ...(c.sha ? { commit: c.sha } : {}) });
        continue;
      }
      versions.push({ commit: i, key, path: f.path, record: read.record });
      links.push({ commit: c, index: i, path: f.path, links: relativeLinks(text.text) });
    }
  });
  // A file that was never a record is skipped; one that was a record once keeps its history.
  const isRecord = new Set(versions.filter((v) => v.record).map((v) => v.key));
  const lastRecord = new Map<string, SourceRecord>();
  for (const v of versions) if (v.record) lastRecord.set(v.key, v.record);

  // Links: to a record that is not there, or to an image missing or refused: said with the file and line.
  const said = new Set<string>();
  const say = (p: Problem) => {
    const key = `${p.file}:${p.line}:${p.message}`;
    if (!said.has(key)) problems.push(p);
    said.add(key);
  };
  const recordNames = new Set([...names.values()].flatMap((n) => [...n]).map((n) => n.split("/").pop()!.toLowerCase()));
  // Images, prepared as an upload is (metadata stripped, limits held): by commit, record and link target.
  const prepareImage = imagePreparer();
  const images = new Map<string, Extract<ImportedImage, { ok: true }>>();
  const imageKey = (index: number, path: string, target: string) => `${index}\0${path}\0${target}`;
  for (const { commit: c, index, path, links: found } of links) {
    if (!isRecord.has(versions.find((v) => v.path === path)?.key ?? "")) continue;
    const at = c.sha ? { commit: c.sha } : {};
    for (const l of found) {
      const base = (l.target.split("#")[0] ?? "").split("/").pop()!.toLowerCase();
      if (l.image) {
        const file = imagePath(path, l.target);
        const bytes = file ? c.images?.get(file) : null;
        if (!file || !bytes) {
          say({
            file: path,
            line: l.line,
            message: `the image ${l.target} is not in the source${c.sha ? " at this commit" : ""}; the note names it in words`,
            ...at,
          });
          continue;
        }
        const image = await prepareImage(bytes, file);
        if (!image.ok) {
          say({ file: path, line: l.line, message: `the image ${l.target} is not imported: ${image.reason}; the note names it in words`, ...at });
          continue;
        }
        images.set(imageKey(index, path, l.target), image);
        if (!l.alt)
          say({
            file: path,
            line: l.line,
            message: `the image ${l.target} has no alt text; the note shows it with "${altOf(l.target)}" (its file name) until someone says what it shows`,
            ...at,
          });
      } else if (/\.(md|markdown)$/.test(base) && !recordNames.has(base))
        say({ file: path, line: l.line, message: `broken link: ${l.target} is not a record of the source; the link is kept as written`, ...at });
    }
  }

  // 2. Ids, in the order records first appeared; links resolved against every name a record had.
  const requests: IdRequest[] = [...lastRecord.keys()].map((key) => ({ key, number: lastRecord.get(key)!.number, names: [...(names.get(key) ?? [])] }));
  const fresh = requests.filter((r) => !opts.knownIds?.has(r.key));
  const known: IdChoice[] = requests
    .filter((r) => opts.knownIds?.has(r.key))
    .map((r) => ({ key: r.key, id: opts.knownIds!.get(r.key)!, source: r.number, renumbered: null }));
  const ids = [
    ...known,
    ...assignIds(fresh, { prefix: opts.prefix, archivePrefix: opts.archivePrefix, taken: new Set([...opts.taken, ...known.map((k) => k.id)]) }),
  ];
  const idOf = new Map(ids.map((c) => [c.key, c]));
  // Records an earlier run imported that this run does not touch are still link targets.
  const earlier = [...(opts.knownIds ?? [])].filter(([key]) => !idOf.has(key));
  const resolve = linkResolver(
    [...requests, ...earlier.map(([key]) => ({ key, number: null, names: [key] }))],
    [...ids, ...earlier.map(([key, id]) => ({ key, id, source: null, renumbered: null }))],
  );
  const order = new Map(requests.map((r, i) => [r.key, opts.existing?.get(idOf.get(r.key)!.id)?.order ?? opts.nextOrder + i]));

  // 3. Commit by commit: the notes as they stand after it, each version judged before it is kept.
  const current = new Map<string, Note>(opts.existing ?? []);
  const statusOf = new Map<string, StatusChoice>();
  const lines: { commit: InputCommit; changed: Map<string, { text: string | null; status: Status | null; assets: string[] }> }[] = [];
  // Every asset a version shows, by its path in the archive: the bytes to commit, the facts the rules judge.
  const assetFiles = new Map<string, Extract<ImportedImage, { ok: true }>>();
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    const here = versions.filter((v) => v.commit === i && isRecord.has(v.key));
    const changed = new Map<string, { text: string | null; status: Status | null; assets: string[] }>();
    const mapped = new Map<string, { note: Omit<Note, "status">; record: SourceRecord }>();
    for (const v of here) {
      const id = idOf.get(v.key)!.id;
      if (opts.conflicts?.has(id)) {
        const message = `conflict: ${id} was edited in Field Notes since the last import, and ${v.path} changed in the source; the source's version is not imported`;
        problems.push({ file: v.path, line: 1, message, ...(c.sha ? { commit: c.sha } : {}) });
        continue;
      }
      if (!v.record) {
        if (current.delete(id)) changed.set(id, { text: null, status: null, assets: [] });
        continue;
      }
      const m = mapRecord(v.record, {
        id,
        order: order.get(v.key)!,
        phase: opts.phase,
        resolve,
        provenance: `Imported from ${opts.sourceLabel}: ${v.path}`,
        image: (target, alt) => {
          const image = images.get(imageKey(i, v.path, target));
          if (!image) return null;
          const src = assetPath(id, image.blob, image.ext);
          assetFiles.set(src, image);
          return { src, alt: alt || altOf(target) };
        },
        ...(opts.sections ? { sections: opts.sections } : {}),
      });
      mapped.set(id, { note: m.note, record: v.record });
    }
    // Statuses: a record lands published only if the machine lets it; superseding needs the superseder published first.
    const draftOf = (n: Omit<Note, "status">): Note => ({ ...n, status: "draft" });
    let published = new Set([...opts.published, ...[...current.values()].filter((n) => isPublishedStatus(n.status)).map((n) => n.id)]);
    for (let pass = 0; pass < 2; pass++) {
      const next = new Set(opts.published);
      for (const n of current.values()) if (!mapped.has(n.id) && isPublishedStatus(n.status)) next.add(n.id);
      for (const [id, { note, record }] of mapped) {
        const choice = landStatus(draftOf(note), record.status, opts.table, published);
        statusOf.set(id, choice);
        if (isPublishedStatus(choice.landed)) next.add(id);
      }
      published = next;
    }
    for (const [id, { note, record }] of mapped) {
      const choice = statusOf.get(id)!;
      const after = finish(note, choice.landed, record);
      const before = current.get(id) ?? null;
      const shown = assetPathsOf(after);
      const refusal = await judge(before, after, {
        phases: opts.phases,
        publishedIds: published,
        onMain: before && isPublishedStatus(before.status) ? before : null,
        assets: { facts: new Map(shown.map((p) => [p, assetFiles.get(p)?.facts ?? null])), limits: assetLimits() },
      });
      if (refusal.length) {
        for (const f of refusal)
          problems.push({
            file: record.file,
            line: lineIn(record, f.field, f.line, opts.sections),
            message: `${id}: ${f.message}; this version is not imported`,
            ...(c.sha ? { commit: c.sha } : {}),
          });
        continue;
      }
      current.set(id, after);
      changed.set(id, { text: serializeNote(after), status: after.status, assets: shown });
    }
    if (changed.size) lines.push({ commit: c, changed });
  }

  // 4. Each record on its line: published ones on the branch (their versions before they could be
  // published are left out, and said so), drafts on their own branch with every version.
  const draftIds = new Set([...statusOf].filter(([id]) => !isPublishedStatus(current.get(id)?.status ?? "draft")).map(([id]) => id));
  const commits: OutputCommit[] = [];
  const drafts = new Map<string, OutputCommit[]>();
  // The assets each line (the branch, a draft branch) holds per note: a version writes the new ones and deletes the ones it no longer shows.
  const held = new Map<string, Set<string>>();
  const assetChanges = (line: "branch" | "draft", id: string, now: readonly string[]): Map<string, Buffer | null> => {
    const key = `${line}\0${id}`;
    const had = held.get(key) ?? new Set(line === "branch" && opts.existing?.get(id) ? assetPathsOf(opts.existing.get(id)!) : []);
    const out = new Map<string, Buffer | null>();
    for (const p of now) if (!had.has(p)) out.set(p, assetFiles.get(p)!.bytes);
    for (const p of had) if (!now.includes(p)) out.set(p, null);
    held.set(key, new Set(now));
    return out;
  };
  for (const { commit: c, changed } of lines) {
    const head = { sha: c.sha, author: c.author, seconds: c.seconds, tz: c.tz, subject: c.subject };
    const onBranch = new Map<string, string | null>();
    const assets = new Map<string, Buffer | null>();
    for (const [id, v] of changed) {
      if (draftIds.has(id)) {
        (drafts.get(id) ?? drafts.set(id, []).get(id)!).push({ ...head, notes: new Map([[id, v.text]]), assets: assetChanges("draft", id, v.assets) });
      } else if (v.status === "draft") {
        const file = [...lastRecord.entries()].find(([key]) => idOf.get(key)?.id === id)?.[1].file ?? id;
        problems.push({
          file,
          line: 1,
          message: `${id}: this early version lands as a draft, and the record is published later; the branch starts the note at its first publishable version`,
          ...(c.sha ? { commit: c.sha } : {}),
        });
      } else {
        onBranch.set(id, v.text);
        for (const [p, bytes] of assetChanges("branch", id, v.assets)) assets.set(p, bytes);
      }
    }
    if (onBranch.size) commits.push({ ...head, notes: onBranch, assets });
  }

  const records: RecordPlan[] = [...lastRecord.entries()].map(([key, record]) => {
    const choice = idOf.get(key)!;
    const m = mapRecord(record, { id: choice.id, order: 0, phase: opts.phase, resolve, provenance: "", ...(opts.sections ? { sections: opts.sections } : {}) });
    return {
      file: record.file,
      names: [...(names.get(key) ?? [])],
      id: choice.id,
      format: record.format,
      status: statusOf.get(choice.id) ?? { word: record.status, asked: "draft", landed: "draft", why: [] },
      filled: m.filled,
      empty: m.empty,
      renumbered: choice.renumbered,
      sourceNumber: choice.source,
    };
  });
  return { records, skipped: skipped.filter((s) => !isRecord.has(keyOfFile(s.file, versions))), problems, commits, drafts };
}

/** Alt text for an image the record shows without any: its file name, without the extension. */
const altOf = (target: string) =>
  (target.split(/[?#]/)[0] ?? "")
    .split("/")
    .pop()!
    .replace(/\.[a-z0-9]+$/i, "") || "image";

const keyOfFile = (file: string, versions: readonly { key: string; path: string }[]) => versions.find((v) => v.path === file)?.key ?? file;

/** The landed status, with what it needs: superseded keeps its link, retracted says why; otherwise the link is a plain relation. */
function finish(note: Omit<Note, "status">, status: Status, record: SourceRecord): Note {
  const { superseded_by, ...rest } = note;
  if (status === "superseded" && superseded_by) return { ...rest, status, superseded_by };
  if (status === "retracted") return { ...rest, status, retraction_reason: `Marked "${(record.status ?? "").trim()}" in the source record`.slice(0, 600) };
  return { ...rest, status };
}

async function judge(before: Note | null, after: Note, ctx: Omit<NoteWriteContext, "review">) {
  const { findings } = await acceptWrite({
    kind: "publish",
    before: ctx.onMain,
    after,
    actor: { id: "import", role: "author" },
    context: { ...ctx, review: { revision: "import", revisionAuthors: [], verdicts: [] } },
  });
  // A draft is not published: the import still keeps it on its branch, and --publish refuses it (content:check says why).
  void before;
  return findings.filter((f) => !(after.status === "draft" && ctx.onMain === null && f.rule === "status"));
}

/**
 * The line of the record a finding came from: within the source section that is the field (its
 * first), else that section's heading; the status line for everything else.
 */
function lineIn(record: SourceRecord, field: string, line: number | undefined, sections?: Readonly<Record<string, SectionKey>>): number {
  const key = field.replace(/^sections\./, "");
  const source = record.sections.find((s) => ({ ...SECTION_MAP, ...sections })[s.heading.toLowerCase()] === key);
  if (source) return line ? source.textLine + line - 1 : source.line;
  return record.statusLine ?? 1;
}
