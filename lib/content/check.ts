import fs from "node:fs/promises";
import path from "node:path";
import { parseNote } from "@/lib/notes/markdown";
import { isPublishedStatus, SECTIONS, type Note } from "@/lib/notes/schema";
import { scanNote } from "@/lib/rules/archive-policy";
import { checkBoundaryChange, checkTransition } from "@/lib/rules/status-machine";
import { createContentStore } from "@/lib/store";
import type { Oid, Snapshot } from "@/lib/store/types";
import { parsePhase, PHASES_DIR, type Phase } from "@/lib/phases/schema";
import { checkNotePhase, checkPhaseChange } from "@/lib/rules/phase-closeout";
import { phaseFacts } from "./phases";
import { parseSite, SITE_FILE } from "./site";

/**
 * The rules applied to content that did not come through the app: a folder of note files, or the
 * commits of a repository ref, each against its parent. Used by `npm run content:check`.
 */

export type Finding = { file: string; line: number; field: string; message: string; commit?: Oid };
export type CheckResult = { checked: number; findings: Finding[] };

type NoteFile = { file: string; source: string };

/** Phase files: each valid and named by its slug. */
export function checkPhaseFiles(files: NoteFile[]): { findings: Finding[]; phases: Map<string, { file: string; phase: Phase }> } {
  const findings: Finding[] = [];
  const phases = new Map<string, { file: string; phase: Phase }>();
  for (const { file, source } of files) {
    const parsed = parsePhase(source);
    if (!parsed.ok) {
      findings.push(...parsed.errors.map((e) => ({ file, line: lineOfKey([{ file, source }], file, e.field.split(".")[0] ?? ""), field: e.field, message: e.message })));
      continue;
    }
    if (path.basename(file) !== `${parsed.phase.slug}.yaml`) {
      findings.push({ file, line: lineOfKey([{ file, source }], file, "slug"), field: "slug", message: `the file of phase ${parsed.phase.name} must be named ${parsed.phase.slug}.yaml` });
    }
    phases.set(parsed.phase.name, { file, phase: parsed.phase });
  }
  return { findings, phases };
}

/** Schema, file name, archive policy and cross-note references of a set of note files. */
export async function checkNoteFiles(
  files: NoteFile[],
  siteSource: string | null,
  phases: readonly Phase[] | null = null,
): Promise<{ findings: Finding[]; notes: Map<string, { file: string; note: Note }> }> {
  const findings: Finding[] = [];
  const notes = new Map<string, { file: string; note: Note }>();
  if (siteSource !== null) {
    try {
      parseSite(siteSource);
    } catch (e) {
      findings.push({ file: SITE_FILE, line: 1, field: "site", message: (e as Error).message.split("\n")[0] ?? "invalid site file" });
    }
  }
  for (const { file, source } of files) {
    const parsed = parseNote(source);
    if (!parsed.ok) {
      findings.push(...parsed.errors.map((e) => ({ file, ...e })));
      continue;
    }
    const { note } = parsed;
    const expected = `${note.id}.md`;
    if (path.basename(file) !== expected) findings.push({ file, line: 2, field: "id", message: `the file of ${note.id} must be named ${expected}` });
    const twin = notes.get(note.id);
    if (twin) findings.push({ file, line: 2, field: "id", message: `${note.id} is also the id of ${twin.file}` });
    else notes.set(note.id, { file, note });
    if (phases) for (const message of checkNotePhase(note, phases)) findings.push({ file, line: lineOfKey(files, file, "phase"), field: "phase", message });
    for (const f of await scanNote(note)) {
      findings.push({ file, line: lineOfField(source, f.field, f.line), field: f.field, message: `${f.rule}: ${f.message}` });
    }
  }
  for (const { file, note } of notes.values()) {
    for (const id of note.related) {
      if (!notes.has(id)) findings.push({ file, line: lineOfKey(files, file, "related"), field: "related", message: `related note ${id} does not exist` });
    }
    if (note.superseded_by && !notes.has(note.superseded_by)) {
      findings.push({ file, line: lineOfKey(files, file, "superseded_by"), field: "superseded_by", message: `superseded_by names ${note.superseded_by}, which does not exist` });
    }
  }
  return { findings, notes };
}

/** A folder: the content folder (with notes/ and site.yaml) or a folder of note files. */
export async function checkFolder(dir: string): Promise<CheckResult> {
  const notesDir = (await exists(path.join(dir, "notes"))) ? path.join(dir, "notes") : dir;
  const names = (await fs.readdir(notesDir)).filter((n) => n.endsWith(".md")).sort();
  const files = await Promise.all(
    names.map(async (n) => ({ file: path.relative(process.cwd(), path.join(notesDir, n)), source: await fs.readFile(path.join(notesDir, n), "utf8") })),
  );
  const sitePath = path.join(dir, SITE_FILE);
  const site = (await exists(sitePath)) ? await fs.readFile(sitePath, "utf8") : null;
  const phasesDir = path.join(dir, PHASES_DIR);
  const phaseFiles = (await exists(phasesDir))
    ? await Promise.all(
        (await fs.readdir(phasesDir))
          .filter((n) => n.endsWith(".yaml"))
          .sort()
          .map(async (n) => ({ file: path.relative(process.cwd(), path.join(phasesDir, n)), source: await fs.readFile(path.join(phasesDir, n), "utf8") })),
      )
    : null;
  const phases = phaseFiles ? checkPhaseFiles(phaseFiles) : null;
  const { findings } = await checkNoteFiles(files, site, phases ? [...phases.phases.values()].map((p) => p.phase) : null);
  return { checked: files.length + (phaseFiles?.length ?? 0), findings: [...(phases?.findings ?? []), ...findings] };
}

/**
 * A repository ref: its tip (or every first-parent commit after `since`) is checked in full, and
 * every note whose status or boundaries changed is held to the status machine against its parent.
 */
export async function checkRepository(gitdir: string, opts: { ref?: string; since?: string } = {}): Promise<CheckResult> {
  const store = createContentStore(gitdir);
  const ref = opts.ref ?? "HEAD";
  if (!(await store.resolve(ref))) throw new Error(`${ref}: no such ref in ${gitdir}`);
  if (opts.since && !(await store.resolve(opts.since))) throw new Error(`${opts.since}: no such revision in ${gitdir}`);

  const commits = await store.log(ref, { until: opts.since, limit: opts.since ? Infinity : 1 });
  const findings: Finding[] = [];
  for (const { commit, parents, author, message } of commits) {
    const read = async (files: string[]) => Promise.all(files.map(async (file) => ({ file, source: (await store.readFile(commit, file)) ?? "" })));
    const noteFiles = await read((await store.snapshot(commit)).notes.map((n) => n.path));
    const phaseFiles = await read((await store.listFiles(commit, PHASES_DIR)).filter((n) => n.endsWith(".yaml")).map((n) => `${PHASES_DIR}/${n}`));
    const phases = checkPhaseFiles(phaseFiles);
    const hasPhases = phaseFiles.length > 0;
    const { findings: own, notes } = await checkNoteFiles(noteFiles, await store.readFile(commit, SITE_FILE), hasPhases ? [...phases.phases.values()].map((p) => p.phase) : null);
    findings.push(...[...phases.findings, ...own].map((f) => ({ ...f, commit })));
    const parent = parents[0];
    if (!parent) continue; // the first commit imports content; there is no earlier state to move from
    const who = author.email || author.name;
    findings.push(...(await transitionFindings(await store.snapshot(parent), notes, commit, who, message)));
    for (const { file, phase } of phases.phases.values()) {
      const beforeText = await store.readFile(parent, file);
      const before = beforeText === null ? null : parsePhase(beforeText);
      if (before?.ok && JSON.stringify(before.phase) === JSON.stringify(phase)) continue;
      const facts = await phaseFacts(store, commit, [...notes.values()].map((n) => n.note).filter((n) => n.phase === phase.name));
      for (const message of checkPhaseChange(before?.ok ? before.phase : null, phase, facts)) findings.push({ file, line: 1, field: "status", message, commit });
    }
  }
  return { checked: commits.length, findings };
}


async function transitionFindings(
  before: Snapshot,
  after: Map<string, { file: string; note: Note }>,
  commit: Oid,
  author: string,
  message: string,
): Promise<Finding[]> {
  // Plain git has no form to ask for a reason: a commit gives it as a trailer line of its message.
  const reason = /^Reason:\s*(.+)$/im.exec(message)?.[1]?.trim();
  const previous = new Map(before.notes.flatMap((s) => (s.ok ? [[s.note.id, s.note] as const] : [])));
  const publishedIds = new Set([...after.values()].filter(({ note }) => isPublishedStatus(note.status)).map(({ note }) => note.id));
  const findings: Finding[] = [];
  for (const { file, note } of after.values()) {
    const old = previous.get(note.id);
    // A note new to this ref arrives as if from a draft: it must meet what its status requires.
    const from = old?.status ?? "draft";
    if (from !== note.status) {
      const verdict = checkTransition({
        note: { ...note, status: from },
        to: note.status,
        revision: commit,
        revisionAuthors: [author],
        reviews: { verdicts: [] }, // review records come with the review module; none counts yet
        actor: { id: author, role: "author" },
        reason: note.retraction_reason ?? reason,
        publishedIds,
      });
      for (const message of verdict.unmet) findings.push({ file, line: 2, field: "status", message: `${from} → ${note.status}: ${message}`, commit });
    }
    if (old) {
      const boundaries = checkBoundaryChange(old.boundaries, note.boundaries, reason);
      for (const message of boundaries.unmet) findings.push({ file, line: 2, field: "boundaries", message, commit });
    }
  }
  return findings;
}

function lineOfKey(files: NoteFile[], file: string, key: string): number {
  const source = files.find((f) => f.file === file)?.source ?? "";
  const i = source.split("\n").findIndex((l) => l.startsWith(`${key}:`));
  return i < 0 ? 1 : i + 1;
}

/** A finding's line within its field, as a line of the file. */
function lineOfField(source: string, field: string, lineInField: number): number {
  const lines = source.split("\n");
  if (field.startsWith("sections.")) {
    const key = field.slice("sections.".length);
    const heading = SECTIONS.find((s) => s.key === key)?.heading;
    const at = lines.findIndex((l) => l.trim() === `## ${heading}`);
    if (at >= 0) {
      // Sections are written with one blank line after the heading; count from the first text line.
      let first = at + 1;
      while (first < lines.length && lines[first]?.trim() === "") first++;
      return first + lineInField;
    }
  }
  const top = field.split(".")[0] ?? field;
  const at = lines.findIndex((l) => l.startsWith(`${top}:`));
  return at < 0 ? 1 : at + 1;
}

async function exists(p: string) {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}
