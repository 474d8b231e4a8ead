import { SECTIONS } from "@/lib/notes/schema";
import { mentionedNames } from "@/lib/rules/mentions";
import type { ReviewRecord, Who } from "@/lib/review/records";
import { KIND_LABEL, NOTIFICATION_KINDS, type NotificationKind } from "@/lib/rules/notification-kinds";

/**
 * Notifications are not stored: they are derived (pure, no I/O) from what is already shared by
 * every instance on a git remote, the review records on refs/reviews/<id> and the note's history on
 * main. A record or a publish that concerns someone is one notification for them, named by the
 * record's id (or the publish commit's first 12 hex digits), so its id is the same on every
 * instance and a read marker (./read-marker.ts) can name it.
 *
 * Who is concerned: a mention names a person (`@name`, resolved against the accounts; an unknown
 * name notifies no one); a reply concerns everyone who spoke in the thread before; a review
 * request the reviewers it names; a verdict the note's authors; a publish the note's authors and
 * reviewers. Nobody is notified of what they did themselves, and one record is one notification
 * per person (the strongest reason wins: a reply that mentions you is a mention).
 */

export { NOTIFICATION_KINDS, KIND_LABEL, type NotificationKind };

export type Notification = {
  /** The record's id, or the publish commit's first 12 hex digits. */
  id: string;
  kind: NotificationKind;
  /** The person it is for (an actor id). */
  to: string;
  note: string;
  title: string | null;
  at: string;
  by: Who;
  /** A studio (or public history) address of the exact thread, review or revision. */
  href: string;
  /** One line, as a list, a feed or a mail subject shows it. */
  text: string;
  /** The comment or summary it is about, clipped. */
  excerpt?: string;
};

export type NoteActivity = {
  id: string;
  title: string | null;
  /** Actor ids of the people who wrote the note's revisions. */
  authors: readonly string[];
  /** The review records, in the log's order. */
  records: readonly ReviewRecord[];
  /** The commits on main that changed the note, in any order. */
  publishes: readonly { commit: string; at: string; by: Who }[];
};

/** The people a mention can name: lower-case name → person, with the name people see them by now. */
export type People = ReadonlyMap<string, Who & { displayName?: string }>;

const RANK: Record<NotificationKind, number> = { mention: 0, "review-request": 1, reply: 2, verdict: 3, publish: 4 };
const EXCERPT = 160;

export const clipExcerpt = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT ? `${line.slice(0, EXCERPT - 1)}…` : line;
};

const sectionHeading = (key: string) => SECTIONS.find((s) => s.key === key)?.heading ?? key;
export const reviewHref = (note: string) => `/studio/notes/${note}/review`;
export const threadHref = (note: string, thread: string) => `${reviewHref(note)}#thread-${thread}`;
export const revisionHref = (note: string, commit: string) => `/notes/${note}/history#r-${commit.slice(0, 12)}`;

/** Every notification the activity of these notes gives, newest first (ties: by id). */
export function deriveNotifications(notes: readonly NoteActivity[], people: People): Notification[] {
  const out: Notification[] = [];
  // Who did it, by the display name they have now; a person no longer known keeps the record's name.
  const shown = new Map([...people.values()].map((p) => [p.id, p.displayName ?? p.name] as const));
  const now = (by: Who): Who => ({ id: by.id, name: shown.get(by.id) ?? by.name });
  for (const n of notes) out.push(...notificationsOfNote(n, people, now));
  return out.sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at < b.at ? 1 : -1));
}

function notificationsOfNote(n: NoteActivity, people: People, now: (by: Who) => Who): Notification[] {
  const found = new Map<string, Notification>(); // `${id}\0${to}`
  const give = (to: string, item: Omit<Notification, "to">) => {
    if (to === item.by.id) return;
    const key = `${item.id}\0${to}`;
    const had = found.get(key);
    if (!had || RANK[item.kind] < RANK[had.kind]) found.set(key, { ...item, to });
  };
  const what = `${n.id}${n.title ? ` (${n.title})` : ""}`;
  // The people a text mentions, leaving out names an earlier text of the same comment already had (an edit).
  const mentionsOf = (text: string, earlier = "") => {
    const had = new Set(mentionedNames(earlier));
    return mentionedNames(text).flatMap((name) => (had.has(name) ? [] : (people.get(name) ?? [])));
  };

  // What each thread is about and who spoke in it so far; each comment's text, for an edit's new mentions.
  const threads = new Map<string, { section: string; speakers: string[] }>();
  const texts = new Map<string, string>();
  const reviewers = new Set<string>();

  for (const r of n.records) {
    const base = { id: r.id, note: n.id, title: n.title, at: r.at, by: now(r.by) };
    if (r.kind === "thread" || r.kind === "reply" || r.kind === "edit") {
      const threadId = r.kind === "thread" ? r.id : r.thread;
      const thread = r.kind === "thread" ? { section: r.section, speakers: [] } : threads.get(threadId);
      if (!thread) continue; // a record for a thread that does not exist (the review page lists it as a problem)
      threads.set(threadId, thread);
      const where = `${what}, ${sectionHeading(thread.section)}`;
      const href = threadHref(n.id, threadId);
      const excerpt = clipExcerpt(r.text);
      for (const p of mentionsOf(r.text, r.kind === "edit" ? texts.get(r.comment) : "")) {
        give(p.id, { ...base, kind: "mention", href, excerpt, text: `${base.by.name} mentioned you on ${where}` });
      }
      if (r.kind === "reply") {
        for (const to of thread.speakers) give(to, { ...base, kind: "reply", href, excerpt, text: `${base.by.name} replied in your thread on ${where}` });
      }
      texts.set(r.kind === "edit" ? r.comment : r.id, r.text);
      if (r.kind !== "edit" && !thread.speakers.includes(r.by.id)) thread.speakers.push(r.by.id);
      continue;
    }
    if (r.kind === "request") {
      for (const p of r.reviewers) {
        give(p.id, {
          ...base,
          kind: "review-request",
          href: reviewHref(n.id),
          text: `${base.by.name} asks you to review ${what}`,
          ...(r.text ? { excerpt: clipExcerpt(r.text) } : {}),
        });
      }
      continue;
    }
    if (r.kind === "verdict") {
      reviewers.add(r.by.id);
      const said = r.verdict === "approve" ? "approved" : "requested changes to";
      for (const to of n.authors) {
        give(to, {
          ...base,
          kind: "verdict",
          href: reviewHref(n.id),
          text: `${base.by.name} ${said} ${what}`,
          ...(r.summary ? { excerpt: clipExcerpt(r.summary) } : {}),
        });
      }
    }
  }

  for (const p of n.publishes) {
    const item = {
      id: p.commit.slice(0, 12),
      note: n.id,
      title: n.title,
      at: p.at,
      by: now(p.by),
      kind: "publish" as const,
      href: revisionHref(n.id, p.commit),
    };
    for (const to of new Set([...n.authors, ...reviewers])) give(to, { ...item, text: `${item.by.name} published ${what}` });
  }
  return [...found.values()];
}
