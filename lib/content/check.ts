import fs from "node:fs/promises";
import path from "node:path";
import { parseNote, type ParseResult } from "@/lib/notes/markdown";
import { isPublishedStatus, SECTIONS, type Note } from "@/lib/notes/schema";
import { acceptWrite, departureOf, missingRelated, needsApproval, phaseRemovalOf, phaseWriteKind, type NoteTextMemo, type NoteWrite, type NoteWriteContext, type RevisionReview } from "@/lib/rules/accept-write";
import { APPROVED_BY, approvalTrailersOf, reasonOf, verifyApprovalTrailers, type VerdictRecord } from "@/lib/rules/approval-trailers";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { readReviewLog, type ReviewLog } from "@/lib/review/review-log";
import { deriveReviewState } from "@/lib/review/derive";
import { openChangeRequests } from "@/lib/rules/status-machine";
import { openContentStore } from "@/lib/working-copy/content-store";
import { assetFolderFindings, committedAssets } from "@/lib/assets/committed";
import type { Oid, Revision, StoredNote } from "@/lib/store/types";
import { parsePhase, PHASES_DIR, type Phase } from "@/lib/phases/schema";
import { DRAFTS_PREFIX, MAIN_REF, notePath } from "@/lib/working-copy/layout";
import { checkMemo, type CheckMemo, type CheckWork } from "./check-memo";
import { checkReviews } from "./check-reviews";
import { phaseFacts } from "./phase-facts";
import { ordersOf } from "@/lib/rules/editorial-order";
import { parseSite, SITE_FILE } from "./site";

/**
 * The rules applied to content that did not come through the app: a folder of note files, or the
 * commits of a repository ref, each against its parent. Used by `npm run content:check`.
 */

/** `rule` names the rule of lib/rules that found it (see ARCHITECTURE.md, "Rules and the acceptance function"). */
export type Finding = { file: string; line: number; field: string; message: string; rule: string; commit?: Oid };
/** `work`: what a repository check read and judged (./check-memo.ts), for tests and benchmarks. */
export type CheckResult = { checked: number; findings: Finding[]; work?: CheckWork };

/** A file's text; `parsed`, when the caller parsed it already (by blob id, ./check-memo.ts). */
type NoteFile = { file: string; source: string; parsed?: ParseResult };

/** Phase files: each valid and named by its slug. */
export function checkPhaseFiles(files: NoteFile[]): { findings: Finding[]; phases: Map<string, { file: string; phase: Phase }> } {
  const findings: Finding[] = [];
  const phases = new Map<string, { file: string; phase: Phase }>();
  for (const { file, source } of files) {
    const parsed = parsePhase(source);
    if (!parsed.ok) {
      findings.push(
        ...parsed.errors.map((e) => {
          const key = e.field.split(".")[0] ?? "";
          // A missing closeout record is about the close itself: point at the status line that claims it.
          const closeout = key === "closeout";
          return { file, line: closeout && !source.includes("\ncloseout:") ? lineOfKey(source, "status") : lineOfKey(source, key), field: e.field, message: e.message, rule: closeout ? "closeout" : "schema" };
        }),
      );
      continue;
    }
    if (path.basename(file) !== `${parsed.phase.slug}.yaml`) {
      findings.push({ file, line: lineOfKey(source, "slug"), field: "slug", message: `the file of phase ${parsed.phase.name} must be named ${parsed.phase.slug}.yaml`, rule: "schema" });
    }
    phases.set(parsed.phase.name, { file, phase: parsed.phase });
  }
  return { findings, phases };
}

/**
 * The files of a set of notes: each parses (schema), is named by its id, has no twin, and names
 * related and superseding notes that exist. What a note may say and become is the acceptance
 * function's, called per note by the caller.
 */
export function checkNoteFiles(
  files: NoteFile[],
  siteSource: string | null,
  /** The ids of every note at the commit, when `files` are only some of them (the ones a landing changed). */
  known?: ReadonlySet<string>,
): { findings: Finding[]; notes: Map<string, { file: string; note: Note; source: string }> } {
  const findings: Finding[] = [];
  const notes = new Map<string, { file: string; note: Note; source: string }>();
  if (siteSource !== null) findings.push(...checkSiteFile(siteSource));
  for (const { file, source, parsed: given } of files) {
    const parsed = given ?? parseNote(source);
    if (!parsed.ok) {
      findings.push(...parsed.errors.map((e) => ({ file, ...e, rule: "schema" })));
      continue;
    }
    const { note } = parsed;
    // The site reads these as `### …`; the file still says otherwise to anyone reading it with git.
    for (const d of parsed.demoted ?? []) findings.push({ file, ...d, rule: "schema" });
    const expected = `${note.id}.md`;
    if (path.basename(file) !== expected) findings.push({ file, line: 2, field: "id", message: `the file of ${note.id} must be named ${expected}`, rule: "schema" });
    const twin = notes.get(note.id);
    if (twin) findings.push({ file, line: 2, field: "id", message: `${note.id} is also the id of ${twin.file}`, rule: "schema" });
    else notes.set(note.id, { file, note, source });
  }
  const exists = (id: string) => notes.has(id) || (known?.has(id) ?? false);
  for (const { file, note, source } of notes.values()) {
    for (const f of missingRelated(note, exists)) findings.push({ file, line: lineOfKey(source, "related"), field: f.field, message: f.message, rule: f.rule });
    if (note.superseded_by && !exists(note.superseded_by)) {
      findings.push({ file, line: lineOfKey(source, "superseded_by"), field: "superseded_by", message: `superseded_by names ${note.superseded_by}, which does not exist`, rule: "schema" });
    }
  }
  return { findings, notes };
}

/** The site file parses. */
function checkSiteFile(source: string): Finding[] {
  try {
    parseSite(source);
    return [];
  } catch (e) {
    return [{ file: SITE_FILE, line: 1, field: "site", message: (e as Error).message.split("\n")[0] ?? "invalid site file", rule: "schema" }];
  }
}

/** A note write as content:check sees it, judged by the acceptance function; findings placed on lines of the file. */
async function judgeNote(file: string, source: string, write: NoteWrite, commit?: Oid, textMemo?: NoteTextMemo): Promise<Finding[]> {
  const { findings } = await acceptWrite(write, textMemo ? { textMemo } : {});
  return findings.map((f) => ({
    file,
    line:
      f.rule === "archive-policy" || f.rule === "images" || f.rule === "diagrams" || f.rule === "verified-change" || (f.rule === "schema" && f.line !== undefined)
        ? lineOfField(source, f.field, f.line ?? 1)
        : lineOfKey(source, f.field.split(".")[0] ?? f.field),
    field: f.field,
    message: f.rule === "archive-policy" ? `${f.policy}: ${f.message}` : f.message,
    rule: f.rule === "archive-policy" ? `archive-policy/${f.policy}` : f.rule,
    ...(commit ? { commit } : {}),
  }));
}

const publishedOf = (notes: Iterable<{ note: Note }>) => new Set([...notes].filter(({ note }) => isPublishedStatus(note.status)).map(({ note }) => note.id));

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
  const { findings, notes } = checkNoteFiles(files, site);
  const context: NoteWriteContext = {
    phases: phases ? [...phases.phases.keys()] : [],
    publishedIds: publishedOf(notes.values()),
    onMain: null,
    review: NO_REVIEW,
  };
  // A folder has no history: each note, as it stands, must be one main could hold.
  for (const { file, note, source } of notes.values()) {
    findings.push(...(await judgeNote(file, source, { kind: "publish", before: note, after: note, actor: PLAIN_GIT, context: { ...context, onMain: note } })));
  }
  return { checked: files.length + (phaseFiles?.length ?? 0), findings: [...(phases?.findings ?? []), ...findings] };
}

/** Said of a landing that needs an approval and names none: how history from before the trailers is judged. */
const NO_TRAILER = ` (the commit names no ${APPROVED_BY} trailer; for a promotion the app published before it wrote trailers, see docs/decisions/approval-trailers.md, "History")`;

const NO_REVIEW = { revision: "", revisionAuthors: [], verdicts: [] };
const PLAIN_GIT = { id: "plain git", role: "author" } as const;

/**
 * Which commits of a repository content:check judges (docs/decisions/approval-trailers.md, "History"):
 * only those it is asked to. By default a ref's tip; with `since`, every first-parent commit after
 * that revision; with `all`, the whole repository: main from its first commit, each draft
 * branch's own commits (from where it leaves main) and every review record (./check-reviews.ts). Each judged commit is held to today's rules,
 * approval trailers included: no exemption by date or by a marker inside the repository, both of
 * which a forger writes as easily as the commit.
 */
export async function checkRepository(
  gitdir: string,
  opts: { ref?: string; since?: string; all?: boolean; requiredApprovals?: number } = {},
): Promise<CheckResult> {
  const store = openContentStore(gitdir);
  const rules: Rules = { requiredApprovals: opts.requiredApprovals ?? 1 };
  if (!opts.all) {
    const ref = opts.ref ?? "HEAD";
    if (!(await store.resolve(ref))) throw new Error(`${ref}: no such ref in ${gitdir}`);
    // --since takes any revision git would (main~3, a tag, an abbreviated id), resolved to its commit.
    const since = opts.since ? await store.resolve(opts.since) : undefined;
    if (opts.since && !since) throw new Error(`${opts.since}: no such revision in ${gitdir}`);
    const commits = await store.log(ref, { until: since ?? undefined, limit: since ? Infinity : 1 });
    const memo = checkMemo();
    const findings = await checkCommits(store, commits, /^(refs\/heads\/)?drafts\//.test(ref), rules, memo);
    return { checked: commits.length, findings, work: memo.work };
  }
  if (opts.ref || opts.since) throw new Error("--all checks main and every draft branch; it takes no --ref or --since");
  if (!(await store.resolve(MAIN_REF))) throw new Error(`${MAIN_REF}: no such ref in ${gitdir}`);
  const main = await store.log(MAIN_REF);
  const onMain = new Set(main.map((r) => r.commit));
  const memo = checkMemo();
  const findings = await checkCommits(store, main, false, rules, memo);
  let checked = main.length;
  for (const { ref } of await store.listRefs(DRAFTS_PREFIX)) {
    const own: Revision[] = [];
    for (const r of await store.log(ref)) {
      if (onMain.has(r.commit)) break;
      own.push(r);
    }
    findings.push(...(await checkCommits(store, own, true, rules, memo)));
    checked += own.length;
  }
  // And every review record on refs/reviews/*, replayed through the same acceptance function.
  findings.push(...(await checkReviews(store)).findings);
  return { checked, findings, work: memo.work };
}

/**
 * Commits of one line (newest first), each checked in full. Every
 * note and phase file a commit changed is judged by the acceptance function as the write the app
 * would have made: on main a publish (from main's version before, or — for a note new to main —
 * along the app's road: proposed as hypothesis on its branch, then promoted), on a draft branch a
 * save or status change. Approvals come from the commit's trailers, verified against refs/reviews.
 */
export type Rules = { requiredApprovals: number };

async function checkCommits(store: Store, commits: readonly Revision[], onDraftBranch: boolean, rules: Rules, memo: CheckMemo = checkMemo()): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const revision of commits) {
    const { commit, parents } = revision;
    const snapshot = await store.snapshot(commit);
    const noteFiles = await Promise.all(snapshot.notes.map((n) => noteFileAt(store, memo, commit, n.path, n.blob)));
    const blobs = new Map(snapshot.notes.map((n) => [n.path, n.blob]));
    const { phaseFiles, phases, blobs: phaseBlobs } = await phaseFilesAt(store, memo, commit);
    const siteBlob = await store.fileId(commit, SITE_FILE);
    const site = await memo.once("site", siteBlob ?? "", async () => {
      const text = siteBlob === null ? null : await store.readFile(commit, SITE_FILE);
      return text === null ? [] : checkSiteFile(text);
    });
    const { findings: own, notes } = checkNoteFiles(noteFiles, null);
    findings.push(...[...phases.findings, ...site, ...own].map((f) => ({ ...f, commit })));
    const parent = parents[0] ?? null;
    // The first commit imports content; there is no earlier state to move from, so each note is judged as it stands.
    const previous = parent ? await store.snapshot(parent) : null;
    const before = new Map(previous?.notes.flatMap((s) => (s.ok ? [[s.note.id, s] as const] : [])) ?? []);
    // On main, a published note may not leave by a deleted, broken or draft file (a draft branch may hold anything).
    if (previous && !onDraftBranch) findings.push(...departures(noteDiff(previous.notes, snapshot.notes).pairs).map((f) => ({ ...f, commit })));
    const who = { id: actorIdOfEmail(revision.author.email || revision.author.name), role: "author" as const };
    const reason = reasonOf(revision.message);
    const untrailed = approvalTrailersOf(revision.message).approvers.length === 0;
    const base: Omit<NoteWriteContext, "onMain" | "review"> = {
      phases: [...phases.phases.keys()],
      publishedIds: publishedOf(notes.values()),
      orders: ordersOf([...notes.values()].map(({ note }) => note)),
      requiredApprovals: rules.requiredApprovals,
      ...(reason ? { reason } : {}),
    };
    const context = memo.contextId(base);
    // Images: the assets/ folder as committed (names, hashes, unreferenced files); referenced ones are judged with their note.
    for (const f of await assetFolderFindings(store, commit, new Map([...notes.values()].map(({ note }) => [note.id, note])))) {
      findings.push({ file: f.file, line: 1, field: "assets", message: f.message, rule: "images", commit });
    }
    for (const { file, note, source } of notes.values()) {
      const old = previous ? (before.get(note.id) ?? null) : null;
      const was = previous ? (old?.ok ? old.note : null) : note;
      const blob = blobs.get(file) ?? null;
      const unchanged = !previous || (old !== null && old.blob === blob);
      const kind = onDraftBranch ? (was && was.status !== note.status ? "status-change" : "save") : "publish";
      // A note the commit did not change is judged by the same rules on the same inputs as at the
      // commit before, most often: its judgement is reused (./check-memo.ts says what the key holds).
      const key = unchanged ? await memo.judgementKey(store, commit, { kind, file, blob, was: previous ? (old?.ok ? old.blob : null) : "self", who: who.id, context, note }) : null;
      const reused = key === null ? undefined : memo.judged.get(key);
      if (reused) memo.work.judgementsReused++;
      const judge = async (write: NoteWrite) => {
        memo.work.notesJudged++;
        const judged = await judgeNote(file, source, write, commit, memo.text);
        if (key !== null) memo.judged.set(key, judged);
        return judged;
      };
      if (onDraftBranch) {
        const review = unchanged ? { review: NO_REVIEW, problems: [] } : await approvalReview(store, note, revision, was, memo.reviewLogs);
        const judged =
          reused ??
          (await judge({
            kind,
            before: was ?? note,
            after: note,
            actor: who,
            context: { ...base, onMain: null, review: review.review, assets: await committedAssets(store, commit, note) },
          }));
        findings.push(...judged.map((f) => ({ ...f, commit })));
        findings.push(...review.problems.map((message) => ({ file, line: lineOfKey(source, "status"), field: "status", message, rule: "review", commit })));
        continue;
      }
      const onMain = was && isPublishedStatus(was.status) ? was : null;
      const review = unchanged ? { review: NO_REVIEW, problems: [] } : await approvalReview(store, note, revision, onMain, memo.reviewLogs, { landing: true });
      const judged =
        reused ??
        (await judge({ kind: "publish", before: onMain, after: note, actor: who, context: { ...base, onMain, review: review.review, assets: await committedAssets(store, commit, note) } }));
      findings.push(
        ...judged.map((f) => (untrailed && f.rule === "review" && /no approval of revision/.test(f.message) ? { ...f, message: `${f.message}${NO_TRAILER}`, commit } : { ...f, commit })),
      );
      findings.push(...review.problems.map((message) => ({ file, line: lineOfKey(source, "status"), field: "status", message, rule: "review", commit })));
    }
    if (!parent) continue;
    // On main a phase file may not go (lib/rules/accept-write.ts, `phaseRemovalOf`), as main's gate judges it.
    if (!onDraftBranch) findings.push(...(await phaseRemovals(store, parent, new Set(phaseBlobs.keys()))).map((f) => ({ ...f, commit })));
    for (const { file, phase } of phases.phases.values()) {
      // The same blob as the parent's is the same phase: nothing changed.
      if ((await store.fileId(parent, file)) === phaseBlobs.get(file)) continue;
      const beforeText = await store.readFile(parent, file);
      const was = beforeText === null ? null : parsePhase(beforeText);
      if (was?.ok && JSON.stringify(was.phase) === JSON.stringify(phase)) continue;
      const prior = was?.ok ? was.phase : null;
      const kind = phaseWriteKind(prior, phase);
      const facts = await phaseFacts(store, commit, [...notes.values()].map((n) => n.note).filter((n) => n.phase === phase.name));
      const others = [...phases.phases.values()].map((p) => p.phase);
      const verdict = await acceptWrite({ kind, before: prior, after: phase, actor: who, context: { facts, phases: others } });
      const source = phaseFiles.find((f) => f.file === file)?.source ?? "";
      for (const f of verdict.findings) findings.push({ file, line: lineOfKey(source, f.field.split(".")[0] ?? f.field), field: f.field, message: f.message, rule: f.rule, commit });
    }
  }
  return findings;
}

/**
 * Of the note files that differ between a commit of main and the next one judged ([before, after]
 * pairs, null where there is none), the notes published before that after are deleted, broken or a
 * draft: each a finding (lib/rules/accept-write.ts, `departureOf`). A file that was broken already
 * is not a published note, and is not one that leaves.
 */
function departures(pairs: readonly (readonly [StoredNote<Note> | null, StoredNote<Note> | null])[]): Finding[] {
  const findings: Finding[] = [];
  for (const [was, at] of pairs) {
    if (!was?.ok || was.id !== was.note.id || !isPublishedStatus(was.note.status)) continue;
    if (at?.blob === was.blob) continue;
    const departure = !at
      ? ({ how: "deleted" } as const)
      : !at.ok
        ? ({ how: "unreadable", problem: at.errors.map((e) => `line ${e.line}: ${e.message}`).join("; ") } as const)
        : at.note.id !== was.id
          ? ({ how: "unreadable", problem: `its id is ${at.note.id}` } as const)
          : at.note.status === "draft"
            ? ({ how: "draft" } as const)
            : null;
    if (!departure) continue;
    const f = departureOf(was.note, departure);
    const line = !at ? 1 : !at.ok ? (at.errors[0]?.line ?? 1) : 1;
    findings.push({ file: was.path, line, field: f.field, message: f.message, rule: f.rule });
  }
  return findings;
}

/**
 * The note files that differ between two snapshots: `differs` (new or changed in `after`), `gone`
 * (in `before` only, looked for only when the counts say some are) and both as [before, after]
 * pairs; `old` is `before` by path.
 */
function noteDiff(before: readonly StoredNote<Note>[], after: readonly StoredNote<Note>[]) {
  const old = new Map(before.map((n) => [n.path, n] as const));
  const differs = after.filter((n) => old.get(n.path)?.blob !== n.blob);
  const added = differs.filter((n) => !old.has(n.path)).length;
  const now = before.length > after.length - added ? new Set(after.map((n) => n.path)) : null;
  const gone = now ? before.filter((n) => !now.has(n.path)) : [];
  const pairs = [...differs.map((n) => [old.get(n.path) ?? null, n] as const), ...gone.map((n) => [n, null] as const)];
  return { old, differs, gone, pairs };
}

/** The phase files at `from` that are not among `kept` (the phase files after it): each deleted, which main refuses (`phaseRemovalOf`). */
async function phaseRemovals(store: Store, from: Oid, kept: ReadonlySet<string>): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const name of await store.listFiles(from, PHASES_DIR)) {
    const file = `${PHASES_DIR}/${name}`;
    if (!name.endsWith(".yaml") || kept.has(file)) continue;
    const was = parsePhase((await store.readFile(from, file)) ?? "");
    const f = phaseRemovalOf(was.ok ? was.phase.name : file);
    findings.push({ file, line: 1, field: f.field, message: f.message, rule: f.rule });
  }
  return findings;
}

type Store = ReturnType<typeof openContentStore>;

/** A note file at a commit, read and parsed once per blob in a run. */
async function noteFileAt(store: Store, memo: CheckMemo, commit: Oid, file: string, blob: Oid): Promise<NoteFile> {
  const read = await memo.once("note", blob, async () => {
    memo.work.notesParsed++;
    const source = (await store.readFile(commit, file)) ?? "";
    return { source, parsed: parseNote(source) };
  });
  return { file, ...read };
}

/** The phase files at a commit and what checkPhaseFiles says of them, once per set of blobs in a run. */
async function phaseFilesAt(store: Store, memo: CheckMemo, commit: Oid) {
  const names = (await store.listFiles(commit, PHASES_DIR)).filter((n) => n.endsWith(".yaml")).map((n) => `${PHASES_DIR}/${n}`);
  const blobs = new Map(await Promise.all(names.map(async (file) => [file, await store.fileId(commit, file)] as const)));
  const checked = await memo.once("phases", JSON.stringify([...blobs]), async () => {
    const phaseFiles = await Promise.all(names.map(async (file) => ({ file, source: (await store.readFile(commit, file)) ?? "" })));
    return { phaseFiles, phases: checkPhaseFiles(phaseFiles) };
  });
  return { ...checked, blobs };
}

/**
 * Main moving from `from` to `to` (a later commit on its line), judged as content:check judges a
 * commit on main, for the files that differ between the two only: each note file that is new or
 * changed and holds a published note (its name, the notes it names, then the acceptance function's `publish` from
 * `from`'s version, with the approval trailers of the last commit on `to`'s line that changed it),
 * each phase file that changed (close, reopen, edit), and the site file. The published view serves
 * `to` only when this finds nothing (./accepted-main.ts); judging only what changed keeps that to
 * the notes a commit touched, not 10,000. A note that did not change is not judged again.
 */
export async function checkLanding(store: Store, from: Oid, to: Oid, rules: Rules = { requiredApprovals: 1 }): Promise<Finding[]> {
  const [before, after] = await Promise.all([store.snapshot(from), store.snapshot(to)]);
  // The note files that differ: a few, of 10,000 (the rest is not looked at again).
  const { old, differs, gone, pairs } = noteDiff(before.notes, after.notes);
  // What the public would be served: a changed file that holds a published note. A draft or a file
  // that does not parse is never served, so it holds nothing back (content:check still reports it).
  const changed = differs.filter((n) => n.ok && n.id === n.note.id && isPublishedStatus(n.note.status));
  // But a note published at `from` that is gone, broken or a draft at `to` would be unpublished by it.
  const findings: Finding[] = departures(pairs);
  const [siteBefore, siteAfter] = await Promise.all([store.fileId(from, SITE_FILE), store.fileId(to, SITE_FILE)]);
  const phaseNames = (await store.listFiles(to, PHASES_DIR)).filter((n) => n.endsWith(".yaml")).map((n) => `${PHASES_DIR}/${n}`);
  const phaseFiles = await Promise.all(phaseNames.map(async (file) => ({ file, source: (await store.readFile(to, file)) ?? "" })));
  const phases = checkPhaseFiles(phaseFiles);
  const changedPhases = new Set<string>();
  for (const { file } of phaseFiles) if ((await store.fileId(from, file)) !== (await store.fileId(to, file))) changedPhases.add(file);
  findings.push(...phases.findings.filter((f) => changedPhases.has(f.file)));
  findings.push(...(await phaseRemovals(store, from, new Set(phaseNames))));
  // Images: what `to` holds under assets/ that the archive would not serve as it stands (a name that
  // is not its content's hash, a file outside a note's folder, one no note shows), unless `from` had
  // the same problem already. An image swapped under its old name changes no note file.
  const asset = (f: { file: string; message: string }) => `${f.file}\0${f.message}`;
  const byId = (notes: readonly StoredNote<Note>[]) => new Map(notes.flatMap((n) => (n.ok ? [[n.note.id, n.note] as const] : [])));
  // Only the folders a landing can have changed the verdict on: those of notes whose file differs
  // (a note may stop showing an image), and, when assets/ changed at all, those whose tree differs.
  // One note's landing at 10,000 notes looks at one folder, not every image twice.
  const folders = new Set([...differs, ...gone].map((n) => n.id));
  const topLevel = (await store.folderId(from, "assets")) !== (await store.folderId(to, "assets"));
  if (topLevel) {
    for (const id of new Set([...(await store.listFolders(from, "assets")), ...(await store.listFolders(to, "assets"))])) {
      if ((await store.folderId(from, `assets/${id}`)) !== (await store.folderId(to, `assets/${id}`))) folders.add(id);
    }
  }
  if (topLevel || folders.size) {
    const only = { folders, topLevel };
    // The notes of those folders: the ones that differ, unless other folders changed too (then all).
    const notesAt = (notes: readonly StoredNote<Note>[], few: readonly (StoredNote<Note> | undefined)[]) => byId(topLevel ? notes : few.filter((n) => n !== undefined));
    const fromNotes = notesAt(before.notes, [...differs.map((n) => old.get(n.path)), ...gone]);
    const assetsBefore = new Set((await assetFolderFindings(store, from, fromNotes, only)).map(asset));
    for (const f of await assetFolderFindings(store, to, notesAt(after.notes, differs), only)) {
      if (!assetsBefore.has(asset(f))) findings.push({ file: f.file, line: 1, field: "assets", message: f.message, rule: "images" });
    }
  }
  if (changed.length === 0 && changedPhases.size === 0 && siteBefore === siteAfter) return findings.map((f) => ({ ...f, commit: f.commit ?? to }));

  const sources = await Promise.all(changed.map(async (n) => ({ file: n.path, source: (await store.readFile(to, n.path)) ?? "" })));
  const known = new Set(after.notes.map((n) => n.id));
  const { findings: own, notes } = checkNoteFiles(sources, siteBefore === siteAfter ? null : await store.readFile(to, SITE_FILE), known);
  findings.push(...own);
  const valid = after.notes.flatMap((n) => (n.ok && n.id === n.note.id ? [n.note] : []));
  const base: Omit<NoteWriteContext, "onMain" | "review"> = {
    phases: [...phases.phases.keys()],
    publishedIds: new Set(valid.filter((n) => isPublishedStatus(n.status)).map((n) => n.id)),
    orders: ordersOf(valid),
    requiredApprovals: rules.requiredApprovals,
  };
  for (const { file, note, source } of notes.values()) {
    // The commit that last changed this file on `to`'s line carries its approval (and its author and reason).
    const [revision] = await store.history(file, to, { limit: 1 });
    if (!revision) continue;
    const was = old.get(file);
    const onMain = was?.ok && isPublishedStatus(was.note.status) ? was.note : null;
    const who = { id: actorIdOfEmail(revision.author.email || revision.author.name), role: "author" as const };
    const reason = reasonOf(revision.message);
    const review = await approvalReview(store, note, revision, onMain, undefined, { landing: true });
    const assets = await committedAssets(store, to, note);
    const write: NoteWrite = { kind: "publish", before: onMain, after: note, actor: who, context: { ...base, ...(reason ? { reason } : {}), onMain, review: review.review, assets } };
    findings.push(...(await judgeNote(file, source, write, revision.commit)));
    findings.push(...review.problems.map((message) => ({ file, line: lineOfKey(source, "status"), field: "status", message, rule: "review", commit: revision.commit })));
  }
  for (const file of changedPhases) {
    const entry = [...phases.phases.values()].find((p) => p.file === file);
    if (!entry) continue;
    const beforeText = await store.readFile(from, file);
    const was = beforeText === null ? null : parsePhase(beforeText);
    const prior = was?.ok ? was.phase : null;
    const { phase } = entry;
    const kind = phaseWriteKind(prior, phase);
    const [revision] = await store.history(file, to, { limit: 1 });
    const who = { id: revision ? actorIdOfEmail(revision.author.email || revision.author.name) : "plain git", role: "author" as const };
    const facts = await phaseFacts(store, to, valid.filter((n) => n.phase === phase.name));
    const others = [...phases.phases.values()].map((p) => p.phase);
    const verdict = await acceptWrite({ kind, before: prior, after: phase, actor: who, context: { facts, phases: others } });
    const source = phaseFiles.find((f) => f.file === file)?.source ?? "";
    for (const f of verdict.findings) findings.push({ file, line: lineOfKey(source, f.field.split(".")[0] ?? f.field), field: f.field, message: f.message, rule: f.rule, commit: revision?.commit ?? to });
  }
  return findings.map((f) => ({ ...f, commit: f.commit ?? to }));
}

/**
 * The review a landing carries, read from its commit's trailers and checked against the note's
 * review ref. Trailers are verified whenever they are there; a landing that needs an approval and
 * names none is judged with no verdicts, so the status machine says what is missing.
 */
async function approvalReview(
  store: Store,
  note: Note,
  revision: Revision,
  onMain: Note | null,
  /** Review logs already read in this run, by note id. */
  logs?: Map<string, Promise<ReviewLog>>,
  /**
   * A landing on main: the note's requests for changes standing when the commit was made are part
   * of its review, as they are of a studio publish. "When" is the commit's committer date, not the
   * time this server judges it: every instance, and content:check, judge a commit alike whenever
   * they read it, and a commit the studio published is not refused later for a request made after
   * it. Git dates are whole seconds: within the commit's own second a request counts as made after
   * it, an approval or a withdrawal as made before (the lenient reading both ways).
   */
  { landing = false }: { landing?: boolean } = {},
): Promise<{ review: RevisionReview; problems: string[] }> {
  const trailers = approvalTrailersOf(revision.message);
  const readLog = () => {
    const reading = logs?.get(note.id) ?? readReviewLog(store, note.id);
    logs?.set(note.id, reading);
    return reading;
  };
  const open = landing ? openRequestsIn(await readLog(), note, revision.commit, Date.parse(revision.committed ?? revision.date)) : [];
  const fallback = { revision: revision.commit, revisionAuthors: [actorIdOfEmail(revision.author.email || revision.author.name)], verdicts: open };
  if (trailers.approvers.length === 0 && trailers.problems.length === 0 && !(trailers.draftRevision && needsApproval(onMain, note))) {
    return { review: fallback, problems: [] };
  }
  const log = await readLog();
  const records = new Map<string, VerdictRecord>();
  for (const r of log.records) if (r.kind === "verdict") records.set(r.id, { id: r.id, by: r.by.id, revision: r.revision, verdict: r.verdict });
  const revisions = [...new Set([...(trailers.draftRevision ? [trailers.draftRevision] : []), ...trailers.approvers.flatMap((a) => records.get(a.record)?.revision ?? [])])];
  const noteAt = new Map<string, Note | null>();
  const authorsAt = new Map<string, string[]>();
  for (const at of revisions) {
    const stored = await store.readNote(note.id, at).catch(() => null);
    noteAt.set(at, stored?.ok ? stored.note : null);
    const history = await store.history(notePath(note.id), at).catch(() => []);
    authorsAt.set(at, [...new Set(history.map((r) => actorIdOfEmail(r.author.email)))]);
  }
  // A Draft-revision whose commit is gone (a clone without the deleted draft branch) is not a finding by itself.
  if (trailers.draftRevision && noteAt.get(trailers.draftRevision) === null) noteAt.delete(trailers.draftRevision);
  const draftRevision = trailers.draftRevision && noteAt.has(trailers.draftRevision) ? trailers.draftRevision : null;
  const verified = verifyApprovalTrailers({ id: note.id, landed: note, trailers: { ...trailers, draftRevision }, records, noteAt, authorsAt });
  const review = verified.review.revision ? verified.review : { ...verified.review, revision: revision.commit };
  return { review: { ...review, verdicts: [...review.verdicts, ...open] }, problems: verified.problems };
}

/**
 * The requests for changes standing in `log` (a reviewer's latest verdict, not withdrawn) when a
 * commit dated `second` (whole seconds) was made, as the review module derives them for the
 * studio's publish: requests made before that second, approvals and withdrawals up to its end.
 */
function openRequestsIn(log: ReviewLog, note: Note, revision: Oid, second: number): RevisionReview["verdicts"] {
  const records = log.records.filter((r) => Date.parse(r.at) < (r.kind === "verdict" && r.verdict === "request-changes" ? second : second + 1000));
  const { state } = deriveReviewState(records, { currentRevision: revision, currentNote: note });
  return openChangeRequests(state).map((r) => ({ reviewer: r.reviewer, revision: r.revision, verdict: "request-changes" as const, name: r.name, ...(r.at ? { at: r.at } : {}) }));
}

function lineOfKey(source: string, key: string): number {
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
