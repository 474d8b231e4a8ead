import "server-only";
import { actorIdOfEmail } from "@/lib/auth/identity";
import { reviewersByName } from "@/lib/review/request-review";
import { readReviewLog } from "@/lib/review/review-log";
import { authorsOf } from "@/lib/working-copy/working-copy";
import { getContentStore } from "@/lib/working-copy/content-store";
import { DRAFTS_PREFIX, MAIN_REF, REVIEWS_PREFIX, draftRef, idOfDraftRef, notePath } from "@/lib/working-copy/layout";
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
  const people = new Map<string, { id: string; name: string }>();
  for (const p of (await reviewersByName()).values()) people.set(p.name.toLowerCase(), { id: p.id, name: p.name });
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
    const draftIds = new Set(drafts.flatMap((d) => idOfDraftRef(d.ref) ?? []));
    const reviewHeads = new Map(reviews.map((r) => [r.ref.slice(REVIEWS_PREFIX.length), r.oid] as const));
    const onMain = main ? (await store.listFiles(main, "notes")).flatMap((f) => /^([^/]+)\.md$/.exec(f.split("/").pop() ?? "")?.[1] ?? []) : [];
    const ids = [...new Set([...onMain, ...draftIds, ...reviewHeads.keys()])].sort();
    const activity = await Promise.all(ids.map((id) => activityOf(id, { main, draft: draftIds.has(id), review: reviewHeads.get(id) ?? null })));
    return deriveNotifications(activity, people);
  })();
  memo = { key, all };
  all.catch(() => {
    if (memo?.all === all) memo = null;
  });
  return all;
}

async function activityOf(id: string, at: { main: string | null; draft: boolean; review: string | null }): Promise<NoteActivity> {
  const store = await getContentStore();
  const history = (ref: string | null) => (ref ? store.history(notePath(id), ref).catch((): FileRevision[] => []) : Promise.resolve([]));
  const [onMain, onDraft, log] = await Promise.all([history(at.main), history(at.draft ? draftRef(id) : null), readReviewLog(store, id, at.review)]);
  const newest = onDraft[0] ?? onMain[0];
  const stored = newest?.blob ? await store.readNote(id, newest.commit).catch(() => null) : null;
  return {
    id,
    title: stored?.ok ? stored.note.title : null,
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
