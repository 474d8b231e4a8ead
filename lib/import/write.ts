import { checkRepository, type Finding } from "@/lib/content/check";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { PHASES_DIR, parsePhase, phasePath, serializePhase } from "@/lib/phases/schema";
import { slug } from "@/lib/web/urls";
import { NothingToCommitError } from "@/lib/store/api";
import type { FileChanges, Revision } from "@/lib/store/types";
import type { ContentStore } from "@/lib/working-copy/content-store";
import { DISCARDED_PREFIX, DRAFTS_PREFIX, draftRef, importRef, importWorkRef, MAIN_REF, noMain, notePath, REVIEWS_PREFIX } from "@/lib/working-copy/layout";
import type { ImportPlan, OutputCommit } from "./plan";

/**
 * The content repository's side of an import, through the store (the only module that writes
 * git): what the archive already holds, the import's commits onto a work ref and then its branch
 * in one compare-and-swap, and the publish (main fast-forwarded to the branch) when content:check
 * over the imported commits is clean.
 */

export const TRAILER = "Imported-from";

export type ArchiveFacts = {
  main: string;
  /** The import branch's head, when an earlier run made it. */
  branchHead: string | null;
  /** Where this run builds: the import branch, or main for a first run. */
  base: string;
  archivePrefix: string;
  taken: Set<string>;
  nextOrder: number;
  phases: string[];
  published: Set<string>;
  /** The notes at the base, by id. */
  notes: Map<string, Note>;
  /** The notes on draft branches, by id (an earlier import's drafts among them). */
  drafts: Map<string, Note>;
  /** Source commits already imported (from the trailers on the base's line and the draft branches). */
  imported: string[];
};

export async function archiveFacts(store: ContentStore, branch: string): Promise<ArchiveFacts> {
  const main = await store.resolve(MAIN_REF);
  if (!main) throw noMain();
  const branchHead = await store.resolve(importRef(branch));
  const mainLine = await store.log(MAIN_REF);
  // Once published (main holds the branch's head), a re-run builds on main, where Field Notes edits land.
  const base = branchHead && !mainLine.some((r) => r.commit === branchHead) ? branchHead : main;
  const [snapshot, mainSnapshot] = await Promise.all([store.snapshot(base), store.snapshot(main)]);
  const notes = new Map(snapshot.notes.flatMap((n) => (n.ok ? [[n.note.id, n.note] as const] : [])));
  const taken = new Set(snapshot.notes.map((n) => n.id));
  for (const prefix of [DRAFTS_PREFIX, REVIEWS_PREFIX, DISCARDED_PREFIX]) {
    for (const { ref } of await store.listRefs(prefix)) taken.add(ref.slice(prefix.length).split("/")[0] ?? "");
  }
  const counts = new Map<string, number>();
  for (const id of taken) counts.set(id.split("-")[0] ?? "", (counts.get(id.split("-")[0] ?? "") ?? 0) + 1);
  const archivePrefix = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] || "AFN";
  const phaseFiles = (await store.listFiles(base, PHASES_DIR)).filter((f) => f.endsWith(".yaml"));
  const phases: string[] = [];
  for (const f of phaseFiles) {
    const parsed = parsePhase((await store.readFile(base, `${PHASES_DIR}/${f}`)) ?? "");
    if (parsed.ok) phases.push(parsed.phase.name);
  }
  // The source commits imported before: the trailers on the base's line and on every draft branch.
  const lines = [await store.log(base), ...(await Promise.all((await store.listRefs(DRAFTS_PREFIX)).map((r) => store.log(r.ref))))];
  const imported = [...new Set(lines.flat().flatMap((r) => trailerOf(r.message) ?? []))];
  const drafts = new Map<string, Note>();
  for (const { ref } of await store.listRefs(DRAFTS_PREFIX)) {
    const stored = await store.readNote(ref.slice(DRAFTS_PREFIX.length), ref);
    if (stored?.ok) drafts.set(stored.note.id, stored.note);
  }
  return {
    main,
    branchHead,
    base,
    archivePrefix,
    taken,
    nextOrder: Math.max(0, ...[...notes.values()].map((n) => n.order)) + 1,
    phases,
    published: new Set(mainSnapshot.notes.flatMap((n) => (n.ok && isPublishedStatus(n.note.status) ? [n.note.id] : []))),
    notes,
    drafts,
    imported,
  };
}

export function trailerOf(message: string): string | null {
  return new RegExp(`^${TRAILER}: *([0-9a-f]{7,64})\\s*$`, "m").exec(message)?.[1] ?? null;
}

/** The phase file an import adds when the archive has phases and none of that name. */
export function phaseFileFor(name: string, facts: ArchiveFacts, sourceLabel: string): { path: string; text: string } | null {
  if (facts.phases.length === 0 || facts.phases.includes(name)) return null;
  const text = serializePhase({ name, slug: slug(name), status: "open", description: `Decision records imported from ${sourceLabel}.`, reopenings: [] });
  return { path: phasePath(slug(name)), text };
}

/**
 * Writes the plan: the branch's commits onto a work ref, each draft record's commits onto a work
 * ref of its own (based on the import's head, where its phase exists), then every ref moved by
 * compare-and-swap from what it held. A failure while writing deletes the work refs, and a ref that
 * cannot move puts back those already moved, so the content repository's branches are as they were
 * (objects already written are unreferenced garbage).
 */
export async function writeImport(
  store: ContentStore,
  branch: string,
  facts: ArchiveFacts,
  plan: Pick<ImportPlan, "commits" | "drafts">,
  extra: { path: string; text: string } | null,
  onCommit: (c: OutputCommit) => void = () => {},
): Promise<{ head: string | null; drafts: Map<string, string> }> {
  const works: { work: string; ref: string; expected: string | null; head: string | null }[] = [];
  try {
    let head = facts.branchHead;
    if (plan.commits.length) {
      const built = await chain(store, importWorkRef(branch), facts.base, plan.commits, extra, onCommit);
      works.push({ work: importWorkRef(branch), ref: importRef(branch), expected: facts.branchHead, head: built });
      head = built;
    }
    for (const [id, commits] of plan.drafts) {
      const ref = draftRef(id);
      const expected = await store.resolve(ref);
      const work = importWorkRef(`${branch}-draft-${id}`);
      const needsPhase = !expected && !head ? extra : null;
      works.push({ work, ref, expected, head: await chain(store, work, expected ?? head ?? facts.base, commits, needsPhase, onCommit) });
    }
    // Every ref or none: a ref that cannot move (it moved meanwhile, a lock) puts back the ones already moved.
    const moved: typeof works = [];
    try {
      for (const w of works) {
        await store.updateRef(w.ref, w.expected, w.head);
        moved.push(w);
      }
    } catch (e) {
      for (const w of moved.reverse())
        await store.updateRef(w.ref, w.head, w.expected).catch((undo: unknown) => console.error(`import: could not put ${w.ref} back`, undo));
      throw e;
    }
    return { head, drafts: new Map(works.filter((w) => w.ref !== importRef(branch)).map((w) => [w.ref.slice(DRAFTS_PREFIX.length), w.head!])) };
  } finally {
    for (const w of works) if (w.head) await store.updateRef(w.work, w.head, null).catch(() => undefined);
  }
}

/** Commits one after another on `work` (created from nothing), the first built on `base`; `onCommit` after each (a progress bar). */
async function chain(
  store: ContentStore,
  work: string,
  base: string,
  commits: readonly OutputCommit[],
  extra: { path: string; text: string } | null,
  onCommit: (c: OutputCommit) => void,
): Promise<string> {
  const stale = await store.resolve(work);
  if (stale) await store.updateRef(work, stale, null);
  let head: string | null = null;
  try {
    for (const [i, c] of commits.entries()) {
      const changes: FileChanges = {};
      if (i === 0 && extra) changes[extra.path] = extra.text;
      for (const [id, text] of c.notes) changes[notePath(id)] = text;
      // A note's images travel in the commit of the version that shows them (as a save commits them).
      for (const [file, bytes] of c.assets ?? []) changes[file] = bytes;
      const message = c.sha ? `${c.subject || "(no subject)"}\n\n${TRAILER}: ${c.sha}\n` : `${c.subject}\n`;
      const rev: Revision | null = await store
        .commit({
          ref: work,
          expected: head,
          parent: head ?? base,
          author: c.author.email || c.author.name ? c.author : { name: "import", email: "import@invalid" },
          authorDate: { seconds: c.seconds, tz: c.tz },
          message,
          changes,
        })
        // A source commit that changed nothing the note shows (a rewrap the section normalises away) writes nothing.
        .catch((e: unknown) => {
          if (e instanceof NothingToCommitError) return null;
          throw e;
        });
      if (rev) head = rev.commit;
      onCommit(c);
    }
  } catch (e) {
    // This chain's own work ref goes with it; the caller removes the ones already finished.
    if (head) await store.updateRef(work, head, null).catch(() => undefined);
    throw e;
  }
  if (!head) throw new Error(`nothing to write on ${work}`);
  return head;
}

/**
 * `--publish`: main moves to the import branch only when main has not moved since the import was
 * based on it and content:check finds nothing in the imported commits (each judged as a landing on
 * main, as `content:check --all` will judge them there). Otherwise every finding is answered.
 */
export async function publishImport(store: ContentStore, branch: string): Promise<{ published: boolean; findings: Finding[] }> {
  const main = await store.resolve(MAIN_REF);
  const head = await store.resolve(importRef(branch));
  if (!main) throw noMain();
  if (!head) throw new Error(`there is no import ${branch} to publish`);
  if (head === main) return { published: true, findings: [] };
  const line = await store.log(importRef(branch));
  if (!line.some((r) => r.commit === main)) {
    const message = `main moved since the import was made; run the import again to build it on main's head`;
    return { published: false, findings: [{ file: "", line: 1, field: "main", message, rule: "import" }] };
  }
  const { findings } = await checkRepository(store.gitdir, { ref: importRef(branch), since: main });
  if (findings.length) return { published: false, findings };
  await store.updateRef(MAIN_REF, main, head);
  return { published: true, findings: [] };
}
