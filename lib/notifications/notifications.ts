import "server-only";
import { actorIdOfEmail } from "@/lib/rules/identity";
import { reviewersByName } from "@/lib/review/request-review";
import { readReviewLog } from "@/lib/review/review-log";
import { authorsOf } from "@/lib/working-copy/working-copy";
import { getContentStore, type ContentStore, type StoredNote } from "@/lib/working-copy/content-store";
import { DRAFTS_PREFIX, MAIN_REF, REVIEWS_PREFIX, idOfDraftRef, notePath } from "@/lib/working-copy/layout";
import type { FileRevision } from "@/lib/store/types";
import { deriveNotifications, type NoteActivity, type Notification, type People } from "./derive";
import { isRead, markRead, markUnread, personSettings } from "./person-settings";

/**
 * A person's notifications, derived from the content repository (review records on
 * refs/reviews/*, the notes' history on main and on their drafts) and the people in the accounts,
 * with their read marker. Nothing is stored but the marker, so every instance on one git remote
 * answers the same list once it has fetched the same refs. The derivation is kept for one state of
 * the refs and the people (a new comment or publish is a new state).
 */

export type PersonNotification = Notification & { read: boolean };
export type NotificationList = { unread: number; items: PersonNotification[] };

/** The newest notifications a person is shown (and a feed carries). */
export const LIST_LIMIT = 200;

let memo: { key: string; all: Promise<Notification[]> } | null = null;

/** Who a mention can name: every account and allow-listed sign-in, by its lower-case name. */
export async function mentionablePeople(): Promise<People> {
  const people = new Map<string, { id: string; name: string; displayName: string }>();
  for (const p of (await reviewersByName()).values()) people.set(p.name.toLowerCase(), { id: p.id, name: p.name, displayName: p.displayName });
  return people;
}

/** Every notification of the site, for anyone, newest first. */
export async function allNotifications(): Promise<Notification[]> {
  const store = await getContentStore();
  const [main, drafts, reviews, people] = await Promise.all([
    store.resolve(MAIN_REF),
    store.listRefs(DRAFTS_PREFIX),
    store.listRefs(REVIEWS_PREFIX),
    mentionablePeople(),
  ]);
  const key = JSON.stringify([store.gitdir, main, drafts, reviews, [...people]]);
  if (memo?.key === key) return memo.all;
  const all = (async () => {
    const draftHeads = new Map(
      drafts.flatMap((d) => {
        const id = idOfDraftRef(d.ref);
        return id ? [[id, d.oid] as const] : [];
      }),
    );
    const reviewHeads = new Map(reviews.map((r) => [r.ref.slice(REVIEWS_PREFIX.length), r.oid] as const));
    const onMain = new Map(main ? (await store.snapshot(main)).notes.map((n) => [n.id, n] as const) : []);
    const ids = [...new Set([...onMain.keys(), ...draftHeads.keys(), ...reviewHeads.keys()])].sort();
    const activity = await Promise.all(
      ids.map((id) => {
        const at = { main, mainNote: onMain.get(id) ?? null, draft: draftHeads.get(id) ?? null, review: reviewHeads.get(id) ?? null };
        // A note whose file on main, draft and review are what they were has the activity it had.
        const noteKey = `${store.gitdir}\0${id}\0${at.mainNote?.blob ?? ""}\0${at.draft ?? ""}\0${at.review ?? ""}`;
        let kept = activities.get(noteKey);
        if (!kept) {
          kept = activityOf(store, id, at);
          if (activities.size >= MAX_ACTIVITIES) activities.delete(activities.keys().next().value as string);
          activities.set(noteKey, kept);
          kept.catch(() => activities.delete(noteKey));
        }
        return kept;
      }),
    );
    return deriveNotifications(activity, people);
  })();
  memo = { key, all };
  all.catch(() => {
    if (memo?.all === all) memo = null;
  });
  return all;
}

const activities = new Map<string, Promise<NoteActivity>>();
const MAX_ACTIVITIES = 20_000;

type NoteRefs = { main: string | null; mainNote: StoredNote | null; draft: string | null; review: string | null };

async function activityOf(store: ContentStore, id: string, at: NoteRefs): Promise<NoteActivity> {
  const history = (ref: string | null) => (ref ? store.history(notePath(id), ref).catch((): FileRevision[] => []) : Promise.resolve([]));
  const [onMain, onDraft, log] = await Promise.all([history(at.mainNote ? at.main : null), history(at.draft), readReviewLog(store, id, at.review)]);
  const draftNote = at.draft ? await store.readNote(id, at.draft).catch(() => null) : null;
  const current = draftNote ?? at.mainNote;
  return {
    id,
    title: current?.ok ? current.note.title : null,
    authors: authorsOf([...onMain, ...onDraft]),
    records: log.records,
    publishes: onMain
      .filter((r) => r.blob !== null)
      .map((r) => ({ commit: r.commit, at: new Date(r.date).toISOString(), by: { id: actorIdOfEmail(r.author.email), name: r.author.name } })),
  };
}

/** A person's newest notifications, each read or not, and how many are unread. */
export async function notificationsOf(personId: string): Promise<NotificationList> {
  const [all, settings] = await Promise.all([allNotifications(), personSettings(personId)]);
  const items = all
    .filter((n) => n.to === personId)
    .slice(0, LIST_LIMIT)
    .map((n) => ({ ...n, read: isRead(settings, n) }));
  return { unread: items.filter((n) => !n.read).length, items };
}

/** Mark read the notifications named (ids of this person's), or all of them: the list after. */
export async function markNotificationsRead(personId: string, which: { ids: string[] } | { all: true }): Promise<NotificationList> {
  const { items } = await notificationsOf(personId);
  if ("all" in which) {
    const newest = items[0]?.at;
    if (newest) await markRead(personId, { upTo: newest });
  } else {
    const named = new Set(which.ids);
    const found = items.filter((n) => named.has(n.id));
    if (found.length) await markRead(personId, { ids: found });
  }
  return notificationsOf(personId);
}

/** Mark one notification unread again: the list after. */
export async function markNotificationUnread(personId: string, id: string): Promise<NotificationList> {
  await markUnread(personId, id);
  return notificationsOf(personId);
}
