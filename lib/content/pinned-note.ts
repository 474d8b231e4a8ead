import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { getContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { readSide } from "@/lib/read-model/read-side";
import { acceptedMain, refusedCommits } from "./accepted-main";

/**
 * A note as published at one commit of main (`/notes/AFN-016?rev=<commit>` and its twins): the
 * commit must be on the first-parent line of the main readers are served (every state main has
 * held up to the newest commit the rules accept, ./accepted-main.ts; never a draft branch's commit,
 * which main only ever takes as a new commit of its own, and never a commit the rules refused,
 * which readers were never shown even when a later commit undid it) and hold the note with a
 * published status. A full id or an unambiguous prefix of 7 or more hex digits; `/notes/AFN-016@<prefix>` is
 * redirected to the `?rev=` URL of the full id (lib/http/pinned-path.ts). Main's first-parent
 * commits are kept per process (lib/read-model/read-side.ts) and extended by the commits since when main moves.
 */

export const REV = /^[0-9a-f]{7,40}$/;

type Line = { head: string; commits: string[]; set: Set<string>; refused: ReadonlyMap<string, string | null> };
/** Main's first-parent line as last read (a failed read is forgotten). */
export type MainLineState = { line: Promise<Line> | null };
const state = (): MainLineState => (readSide().mainLine ??= { line: null });

async function mainLine(): Promise<Line> {
  const store = await getContentStore();
  const tip = await store.resolve(MAIN_REF);
  if (!tip) return { head: "", commits: [], set: new Set(), refused: new Map() };
  // A commit the rules refuse, and any after it, is not served: nor is it pinned.
  const head = (await acceptedMain(store, tip)).served;
  const refused = refusedCommits(store);
  const s = state();
  const previous = await s.line?.catch(() => null);
  if (previous?.head === head) return previous;
  const next = (async (): Promise<Line> => {
    if (previous?.head) {
      const since = await store.log(head, { until: previous.head });
      // Main moved forward along first parents: add the new commits; otherwise (a reset) walk again.
      if (since.length && since[since.length - 1]?.parents[0] === previous.head) {
        const commits = [...since.flatMap((r) => (refused.has(r.commit) ? [] : [r.commit])), ...previous.commits];
        return { head, commits, set: new Set(commits), refused };
      }
    }
    const commits = (await store.log(head)).flatMap((r) => (refused.has(r.commit) ? [] : [r.commit]));
    return { head, commits, set: new Set(commits), refused };
  })();
  s.line = next;
  next.catch(() => {
    if (s.line === next) s.line = null;
  });
  return next;
}

/** What a `rev` names on main's first-parent line: one commit, or why none (in words, for a 404). */
export type MainRev = { ok: true; commit: string } | { ok: false; problem: string };

/**
 * The commit of `line` (main's first-parent commits, newest first) that `rev` names: the full id,
 * or a prefix of 7 or more hex digits that starts exactly one of them. Pure: the table test is
 * lib/content/pinned-note.test.ts.
 */
export function mainRevOf(rev: string, line: { commits: readonly string[]; set: ReadonlySet<string>; refused?: ReadonlyMap<string, string | null> }): MainRev {
  if (!REV.test(rev)) return { ok: false, problem: `${JSON.stringify(rev.slice(0, 60))} is not a commit: give 7 to 40 hex digits (lower case) of a commit of main` };
  // Asked only when nothing on the line matched: a refused commit is why, or nothing is.
  const refused = () => [...(line.refused?.keys() ?? [])].find((c) => c.startsWith(rev));
  const never = (commit: string) => `commit ${commit.slice(0, 12)} of main was refused by the archive's rules and never published`;
  if (rev.length === 40) {
    if (line.set.has(rev)) return { ok: true, commit: rev };
    const was = refused();
    return { ok: false, problem: was ? never(was) : `main has never been at commit ${rev}` };
  }
  const found = line.commits.filter((c) => c.startsWith(rev));
  if (found.length === 1 && found[0]) return { ok: true, commit: found[0] };
  if (found.length === 0) {
    const was = refused();
    return { ok: false, problem: was ? never(was) : `no commit main has been at starts with ${rev}` };
  }
  const shown = found.slice(0, 5).map((c) => c.slice(0, 12));
  return {
    ok: false,
    problem: `${rev} is ambiguous: ${found.length} commits of main start with it (${shown.join(", ")}${found.length > shown.length ? ", …" : ""}); give more digits`,
  };
}

/** The commit on main's first-parent line that `rev` names, or why none does. */
export async function mainCommitOf(rev: string): Promise<MainRev> {
  if (!REV.test(rev)) return mainRevOf(rev, { commits: [], set: new Set() });
  return mainRevOf(rev, await mainLine());
}

/**
 * The note `id` as main held it at `rev`, if it was published there; otherwise why not (the
 * caller's 404): `rev` names no single commit of main, or the note was not published at it.
 */
export async function publishedNoteAt(id: string, rev: string): Promise<{ ok: true; commit: string; note: Note } | { ok: false; problem: string }> {
  const found = await mainCommitOf(rev);
  if (!found.ok) return found;
  const { commit } = found;
  const store = await getContentStore();
  const stored = await store.readNote(id, commit);
  const note = stored?.ok ? (stored.note as Note) : null;
  if (note && isPublishedStatus(note.status)) return { ok: true, commit, note };
  return { ok: false, problem: `${id} was not published at commit ${commit.slice(0, 12)}` };
}
