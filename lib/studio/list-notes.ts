import "server-only";
import { getContentStore } from "@/lib/working-copy/content-store";
import type { Oid, Person } from "@/lib/store/types";
import { APP_IDENTITY } from "@/lib/store/api";
import { changedBy } from "@/lib/notes/byline";
import { parseSite, SITE_FILE } from "@/lib/content/site";
import { compareIds, isPublishedStatus, type Status } from "@/lib/notes/schema";
import type { StudioActor } from "@/lib/rules/identity";
import { DRAFTS_PREFIX, idOfDraftRef, MAIN_REF, noMain, notePath } from "./refs";

/** The studio's list: every draft and every published note, with status and last change. */

export type NoteListEntry = {
  id: string;
  title: string;
  /** The status the studio works on: the draft's when there is one. */
  status: Status | null;
  /** Status on main, when published. */
  publishedStatus: Status | null;
  draft: boolean;
  /** The draft's file does not parse (edited outside the studio). */
  invalid: boolean;
  /** `by` names who changed it the way the public pages do (the seed reads as the archive's author, not "Field Notes"). */
  lastChange: { commit: Oid; date: string; author: Person; by: string } | null;
};

export async function listNotes(_actor: StudioActor): Promise<NoteListEntry[]> {
  const store = await getContentStore();
  const drafts = await store.listRefs(DRAFTS_PREFIX);
  const mainHead = await store.resolve(MAIN_REF);
  if (!mainHead) throw noMain();
  const [main, siteText] = await Promise.all([store.snapshot(mainHead), store.readFile(mainHead, SITE_FILE)]);
  const siteAuthor = siteAuthorOf(siteText);
  const published = new Map(main.notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [[n.id, n.note]] : [])));
  const draftHeads = new Map(
    drafts.flatMap((d) => {
      const id = idOfDraftRef(d.ref);
      return id ? [[id, d.oid]] : [];
    }),
  );

  const ids = [...new Set([...draftHeads.keys(), ...published.keys()])];
  const entries = await Promise.all(
    ids.map(async (id): Promise<NoteListEntry> => {
      const head = draftHeads.get(id) ?? mainHead;
      const stored = draftHeads.has(id) ? await store.readNote(id, head) : null;
      const onMain = published.get(id) ?? null;
      const note = stored?.ok ? stored.note : draftHeads.has(id) ? null : onMain;
      const [last] = await store.history(notePath(id), head, { limit: 1 });
      return {
        id,
        title: note?.title ?? (stored ? "(a file that is not a valid note)" : "(new, not saved yet)"),
        status: note?.status ?? (stored ? null : "draft"),
        publishedStatus: onMain?.status ?? null,
        draft: draftHeads.has(id),
        invalid: stored !== null && !stored.ok,
        lastChange: last ? { commit: last.commit, date: last.date, author: last.author, by: changedBy(last.author, APP_IDENTITY, siteAuthor) } : null,
      };
    }),
  );
  // Drafts first (what is being worked on), newest change first; then the published notes by id, newest first.
  const time = (e: NoteListEntry) => (e.lastChange ? Date.parse(e.lastChange.date) : Infinity);
  return entries.sort((a, b) => Number(b.draft) - Number(a.draft) || (a.draft ? time(b) - time(a) : 0) || compareIds(b.id, a.id));
}

/** The archive's byline from site.yaml; a missing or broken site file must not hide the list, so the app's commits then name the app. */
function siteAuthorOf(siteText: string | null): string {
  try {
    return siteText === null ? APP_IDENTITY.name : parseSite(siteText).author;
  } catch {
    return APP_IDENTITY.name;
  }
}
