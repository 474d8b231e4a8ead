import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { getContentStore } from "@/lib/working-copy/content-store";
import { MAIN_REF } from "@/lib/working-copy/layout";
import { acceptedMain } from "./accepted-main";

/**
 * A note as published at one commit of main (`/notes/AFN-016?rev=<commit>` and its twins): the
 * commit must be on the first-parent line of the main readers are served (every state main has
 * held up to the newest commit the rules accept, ./accepted-main.ts; never a draft branch's commit,
 * which main only ever takes as a new commit of its own) and hold the note with a published status. A full id or an unambiguous prefix of 7 or more hex digits. Main's first-parent
 * commits are kept per process (on globalThis) and extended by the commits since when main moves.
 */

export const REV = /^[0-9a-f]{7,40}$/;

type Line = { head: string; commits: string[]; set: Set<string> };
const KEY = Symbol.for("field-notes.main-line");
const holder = globalThis as typeof globalThis & { [KEY]?: Promise<Line> | null };

async function mainLine(): Promise<Line> {
  const store = await getContentStore();
  const tip = await store.resolve(MAIN_REF);
  if (!tip) return { head: "", commits: [], set: new Set() };
  // A commit the rules refuse, and any after it, is not served: nor is it pinned.
  const head = (await acceptedMain(store, tip)).served;
  const previous = await holder[KEY]?.catch(() => null);
  if (previous?.head === head) return previous;
  const next = (async (): Promise<Line> => {
    if (previous?.head) {
      const since = await store.log(head, { until: previous.head });
      // Main moved forward along first parents: add the new commits; otherwise (a reset) walk again.
      if (since.length && since[since.length - 1]?.parents[0] === previous.head) {
        const commits = [...since.map((r) => r.commit), ...previous.commits];
        return { head, commits, set: new Set(commits) };
      }
    }
    const commits = (await store.log(head)).map((r) => r.commit);
    return { head, commits, set: new Set(commits) };
  })();
  holder[KEY] = next;
  next.catch(() => {
    if (holder[KEY] === next) holder[KEY] = null;
  });
  return next;
}

/** The full commit id on main's first-parent line that `rev` names, or null. */
export async function mainCommitOf(rev: string): Promise<string | null> {
  if (!REV.test(rev)) return null;
  const line = await mainLine();
  if (rev.length === 40) return line.set.has(rev) ? rev : null;
  const found = line.commits.filter((c) => c.startsWith(rev));
  return found.length === 1 ? (found[0] ?? null) : null;
}

/** The note `id` as main held it at `rev`, if it was published there; null otherwise (the caller's 404). */
export async function publishedNoteAt(id: string, rev: string): Promise<{ commit: string; note: Note } | null> {
  const commit = await mainCommitOf(rev);
  if (!commit) return null;
  const store = await getContentStore();
  const stored = await store.readNote(id, commit);
  if (!stored?.ok) return null;
  const note = stored.note as Note;
  return isPublishedStatus(note.status) ? { commit, note } : null;
}
