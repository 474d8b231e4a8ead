import type { Finding } from "@/lib/content/check";
import { SECTIONS, type SectionKey } from "@/lib/notes/schema";
import type { ContentStore } from "@/lib/working-copy/content-store";
import { draftRef, notePath } from "@/lib/working-copy/layout";
import { relativeLinks } from "./formats";
import { imagePath } from "./images";
import { planImport, type ImportPlan, type InputCommit } from "./plan";
import { findRecordsFolder, headOf, openSource, readContents, recordFiles, sourceCommits, type Source } from "./source";
import { SECTION_MAP, sectionTable } from "./mapping";
import { statusTable, type StatusTable } from "./status";
import { archiveFacts, phaseFileFor, publishImport, trailerOf, writeImport, type ArchiveFacts } from "./write";

/**
 * `npm run import`: a source of decision records into a branch of the content repository. The
 * steps: read the source (./source.ts), plan every id, field and status (./plan.ts), write the
 * commits through the store (./write.ts), and publish when asked and content:check is clean.
 */

export type ImportOptions = {
  source: string;
  path?: string;
  /** `--prefix ADR`; null renumbers into the archive's sequence. */
  prefix: string | null;
  status: string[];
  /** `--section "Decision Drivers=invariant"`. */
  sections?: string[];
  phase: string;
  /** The import's branch name (imports/<branch>). */
  branch: string;
  plan: boolean;
  history: boolean;
  publish: boolean;
  /** Told where the import is: each stage as it begins, and after each commit written (the studio's progress bar). */
  onProgress?: (p: ImportProgress) => void;
};

/** How far an import is: records done are those whose every commit is written. */
export type ImportProgress = {
  stage: "reading" | "writing" | "publishing" | "done";
  records: { done: number; total: number };
  commits: { done: number; total: number };
};

export type ImportReport = {
  source: string;
  folder: string;
  branch: string;
  plan: ImportPlan;
  /** Source commits already imported by an earlier run and left out. */
  alreadyImported: number;
  written: number;
  head: string | null;
  /** Records that land as drafts, each on its own draft branch. */
  drafts: string[];
  conflicts: string[];
  published: boolean | null;
  publishFindings: Finding[];
};

export async function runImport(store: ContentStore, opts: ImportOptions): Promise<ImportReport> {
  const table = statusTable(opts.status);
  const sections = sectionTable(opts.sections ?? []);
  if (opts.prefix !== null && !/^[A-Z][A-Z0-9]*$/.test(opts.prefix)) throw new Error(`--prefix ${opts.prefix}: expected capital letters and digits, like ADR`);
  const tell = opts.onProgress ?? (() => {});
  tell({ stage: "reading", records: { done: 0, total: 0 }, commits: { done: 0, total: 0 } });
  const source = await openSource(opts.source);
  try {
    const folder = await findRecordsFolder(source, opts.path);
    const facts = await archiveFacts(store, opts.branch);
    const { input, since } = await readInput(source, folder, facts, opts.history);
    const knownIds = knownRecords(facts, source.label);
    const conflicts = await editedSince(store, facts, knownIds);
    const plan = await planImport(input, {
      prefix: opts.prefix,
      archivePrefix: facts.archivePrefix,
      taken: facts.taken,
      nextOrder: facts.nextOrder,
      phase: opts.phase,
      phases: facts.phases.length && !facts.phases.includes(opts.phase) ? [...facts.phases, opts.phase] : facts.phases,
      table,
      sections,
      sourceLabel: source.label,
      published: facts.published,
      existing: facts.notes,
      knownIds,
      conflicts,
    });
    const report: ImportReport = {
      source: source.shown,
      folder,
      branch: opts.branch,
      plan,
      alreadyImported: since,
      written: 0,
      head: facts.branchHead,
      drafts: [...plan.drafts.keys()],
      conflicts: [...conflicts].filter((id) => plan.problems.some((p) => p.message.startsWith(`conflict: ${id} `))),
      published: null,
      publishFindings: [],
    };
    if (opts.plan) return report;
    const extra = phaseFileFor(opts.phase, facts, source.label);
    const progress = commitProgress(plan);
    tell(progress.at(0));
    let done = 0;
    const written = await writeImport(store, opts.branch, facts, plan, extra, () => tell(progress.at(++done)));
    report.head = written.head;
    report.drafts = [...written.drafts.keys()];
    report.written = plan.commits.length + [...plan.drafts.values()].reduce((n, c) => n + c.length, 0);
    if (opts.publish && report.head) {
      tell({ ...progress.at(done), stage: "publishing" });
      const outcome = await publishImport(store, opts.branch);
      report.published = outcome.published;
      report.publishFindings = outcome.findings;
    }
    tell({ ...progress.at(done), stage: "done" });
    return report;
  } finally {
    await source.close();
  }
}

/**
 * Progress by commits written, in the order writeImport writes them (the branch's, then each
 * draft's): a record is done once its last commit is; a record with none (refused, a conflict) is
 * done from the start.
 */
function commitProgress(plan: ImportPlan): { at(done: number): ImportProgress } {
  const order = [...plan.commits, ...[...plan.drafts.values()].flat()];
  const last = new Map<string, number>();
  order.forEach((c, i) => {
    for (const id of c.notes.keys()) last.set(id, i + 1);
  });
  const total = plan.records.length;
  return {
    at: (done) => ({
      stage: "writing",
      records: { done: Math.max(0, total - [...last.values()].filter((n) => n > done).length), total },
      commits: { done, total: order.length },
    }),
  };
}

async function readInput(source: Source, folder: string, facts: ArchiveFacts, history: boolean): Promise<{ input: InputCommit[]; since: number }> {
  const head = await headOf(source);
  if (!source.gitdir || !history || !head) {
    const files = await recordFiles(source, folder);
    const bytes = await readContents(
      source,
      files.map((path) => ({ rev: head, path })),
    );
    const now = Math.floor(Date.now() / 1000);
    const subject = `Import ${files.length} decision records from ${source.label}`;
    const done = head !== null && facts.imported.includes(head);
    const commit: InputCommit = {
      sha: head,
      author: { name: "import", email: "import@invalid" },
      seconds: now,
      tz: "+0000",
      subject,
      files: files.map((path, i) => ({ path, bytes: bytes[i] ?? null })),
    };
    return { input: done ? [] : await withImages(source, [commit]), since: done ? 1 : 0 };
  }
  // A re-run takes the source commits after the newest one an earlier run imported.
  const all = await sourceCommits(source, folder);
  const last = all.map((c) => c.sha).findLastIndex((sha) => facts.imported.includes(sha));
  const fresh = all.slice(last + 1);
  const wanted = fresh.flatMap((c) => c.changes.filter((ch) => ch.status !== "D").map((ch) => ({ rev: c.sha, path: ch.path })));
  const contents = await readContents(source, wanted);
  let at = 0;
  const input = fresh.map<InputCommit>((c) => ({
    sha: c.sha,
    author: c.author,
    seconds: c.seconds,
    tz: c.tz,
    subject: c.subject,
    files: c.changes.map((ch) => ({ path: ch.path, ...(ch.from ? { from: ch.from } : {}), bytes: ch.status === "D" ? null : (contents[at++] ?? null) })),
  }));
  return { input: await withImages(source, input), since: last + 1 };
}

/**
 * Each commit with the images its record versions link by relative path, read as that commit holds
 * them (one `git cat-file --batch` for all), so a version's images are committed with it.
 */
async function withImages(source: Source, input: InputCommit[]): Promise<InputCommit[]> {
  const wanted = input.map((c) => {
    const paths = new Set<string>();
    for (const f of c.files) {
      if (!f.bytes) continue;
      for (const l of relativeLinks(f.bytes.toString("utf8"))) {
        const file = l.image ? imagePath(f.path, l.target) : null;
        if (file) paths.add(file);
      }
    }
    return [...paths];
  });
  const bytes = await readContents(
    source,
    input.flatMap((c, i) => wanted[i]!.map((p) => ({ rev: c.sha, path: p }))),
  );
  let at = 0;
  return input.map((c, i) => ({ ...c, images: new Map(wanted[i]!.map((p) => [p, bytes[at++] ?? null])) }));
}

/** Records an earlier run imported: the source path each note's provenance names → its id. */
function knownRecords(facts: ArchiveFacts, label: string): Map<string, string> {
  const known = new Map<string, string>();
  const prefix = `Imported from ${label}: `;
  for (const note of [...facts.notes.values(), ...facts.drafts.values()]) {
    const detail = note.provenance?.detail ?? "";
    if (detail.startsWith(prefix)) known.set(detail.slice(prefix.length), note.id);
  }
  return known;
}

/** Imported notes whose last change on the base was not an import: edited in Field Notes since. */
async function editedSince(store: ContentStore, facts: ArchiveFacts, known: ReadonlyMap<string, string>): Promise<Set<string>> {
  const edited = new Set<string>();
  if (!facts.imported.length) return edited;
  for (const id of known.values()) {
    const [last] = await store.history(notePath(id), facts.notes.has(id) ? facts.base : draftRef(id), { limit: 1 }).catch(() => []);
    if (last && !trailerOf(last.message)) edited.add(id);
  }
  return edited;
}

/** The report as the command prints it: per record its id, format, status mapping and fields. */
export function formatReport(r: ImportReport, mode: "plan" | "import"): string {
  const out: string[] = [];
  out.push(`${mode === "plan" ? "Plan (nothing written)" : "Import"}: ${r.source}, folder ${r.folder}, branch imports/${r.branch}`);
  if (r.alreadyImported) out.push(`${r.alreadyImported} source commit(s) were imported by an earlier run and are left out.`);
  out.push("");
  for (const rec of r.plan.records) {
    const s = rec.status;
    const status = `${s.word ?? "(no status)"} → ${s.asked}${s.landed !== s.asked ? `, lands ${s.landed}` : ""}`;
    out.push(`${rec.id}  ${rec.file}  [${rec.format}]  ${status}`);
    if (rec.names.length > 1) out.push(`    renamed in the source: ${rec.names.join(" → ")}`);
    if (rec.renumbered) out.push(`    renumbered (source number ${rec.sourceNumber ?? "none"}): ${rec.renumbered}`);
    for (const why of s.why) out.push(`    why: ${why}`);
    for (const f of rec.filled) out.push(`    ${f.field} ← ${f.from.join(", ")}`);
    if (rec.empty.length) out.push(`    empty: ${rec.empty.join(", ")}`);
  }
  if (r.plan.skipped.length) {
    out.push("", "Skipped (not decision records):");
    for (const p of r.plan.skipped) out.push(`  ${p.file}:${p.line}: ${p.message}`);
  }
  if (r.plan.problems.length) {
    out.push("", "Problems (each says what the import did about it):");
    for (const p of r.plan.problems) out.push(`  ${p.file}:${p.line}: ${p.message}${p.commit ? ` (source commit ${p.commit.slice(0, 10)})` : ""}`);
  }
  if (mode === "import") {
    out.push(
      "",
      `${r.written} commit(s) written: imports/${r.branch}${r.head ? ` (head ${r.head.slice(0, 10)})` : ""}${r.drafts.length ? `, and the drafts of ${r.drafts.join(", ")}` : ""}.`,
    );
    if (r.published === true) out.push("Published: main now points at the import.");
    if (r.published === false) {
      out.push("Not published: content:check found:");
      for (const f of r.publishFindings) out.push(`  ${f.file}:${f.line}: ${f.field}: ${f.message}`);
    }
  }
  return out.join("\n");
}

/** The mapping, as --plan prints it above the records (docs/decisions/adr-import-mapping.md). */
export function formatMapping(table: StatusTable, overrides: Readonly<Record<string, SectionKey>> = {}): string {
  const heading = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading]));
  const sections = Object.entries({ ...SECTION_MAP, ...overrides }).map(([from, key]) => `  ${from} → ${heading[key]}`);
  const statuses = Object.entries(table).map(([word, status]) => `  ${word} → ${status}`);
  return [
    "Sections (by heading, any case):",
    ...sections,
    "  anything else, the text before the first section, metadata lines and unknown front matter → Notes, under its own heading",
    "Statuses (emoji, casing and trailing words ignored; no status → draft):",
    ...statuses,
    "  a record lands at the highest of these the status machine allows without a review: never past hypothesis",
  ].join("\n");
}
