import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { config } from "@/lib/env";
import { readAccounts, updateAccounts, type PersonSettings } from "@/lib/auth/account-file";
import { NOTIFICATION_KINDS, type NotificationKind } from "@/lib/rules/notification-kinds";

/**
 * What each person keeps about their notifications, stored where the accounts are (the accounts
 * file, or the accounts repository with ACCOUNTS_REMOTE), keyed by actor id: so every instance of a
 * site sees the same read marker, feed secret and mail choices without a store of its own.
 *
 * - The read marker: `readBefore` (every notification at or before it is read), `read` (ids of
 *   later ones read one by one, at most READ_IDS kept) and `unread` (ids marked unread again).
 * - The feed secret: `fnf_<id>_<secret>`, shown once; only its SHA-256 is kept. A new one replaces
 *   (revokes) the old one; revoking leaves none.
 */

export type { PersonSettings };
const READ_IDS = 500;
const FEED = /^fnf_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;
const digest = (token: string) => createHash("sha256").update(token).digest("hex");
const dataDir = () => config().dataDir;

export async function personSettings(id: string): Promise<PersonSettings> {
  return (await readAccounts(dataDir())).people?.[id] ?? {};
}

async function changePerson<T>(id: string, what: string, change: (p: PersonSettings) => T): Promise<T> {
  return updateAccounts(
    dataDir(),
    (data) => {
      data.people ??= {};
      const person = (data.people[id] ??= {});
      return change(person);
    },
    what,
  );
}

/** Is the notification (its id and time) read by this person? */
export const isRead = (p: PersonSettings, n: { id: string; at: string }) =>
  !(p.unread ?? []).includes(n.id) && ((p.readBefore !== undefined && n.at <= p.readBefore) || (p.read ?? []).includes(n.id));

/** Keep a list of ids when it has any (bounded, the oldest go first), else drop it. */
function keep(p: PersonSettings, key: "read" | "unread", ids: string[]) {
  const kept = [...new Set(ids)].slice(-READ_IDS);
  if (kept.length) p[key] = kept;
  else delete p[key];
}

/** Mark notifications read: the ones named, or every one up to `upTo` (the newest the person saw). */
export async function markRead(id: string, mark: { ids: { id: string; at: string }[] } | { upTo: string }): Promise<void> {
  await changePerson(id, `Mark notifications of ${id} read`, (p) => {
    if ("upTo" in mark) {
      if (!p.readBefore || mark.upTo > p.readBefore) p.readBefore = mark.upTo;
      keep(p, "unread", []);
      return;
    }
    const named = new Set(mark.ids.map((n) => n.id));
    keep(
      p,
      "unread",
      (p.unread ?? []).filter((id) => !named.has(id)),
    );
    const later = mark.ids.filter((n) => !isRead(p, n)).map((n) => n.id);
    keep(p, "read", [...(p.read ?? []), ...later]);
  });
}

/** Mark one notification unread again. */
export async function markUnread(id: string, notification: string): Promise<void> {
  await changePerson(id, `Mark a notification of ${id} unread`, (p) => {
    keep(
      p,
      "read",
      (p.read ?? []).filter((n) => n !== notification),
    );
    keep(p, "unread", [...(p.unread ?? []), notification]);
  });
}

/** A new feed secret for this person (the old one stops working at once): the token, shown once. */
export async function issueFeedToken(id: string): Promise<string> {
  const tokenId = randomBytes(6).toString("hex");
  const token = `fnf_${tokenId}_${randomBytes(32).toString("base64url")}`;
  await changePerson(id, `New notification feed address for ${id}`, (p) => {
    p.feed = { id: tokenId, hash: digest(token), created: new Date().toISOString() };
  });
  return token;
}

export async function revokeFeedToken(id: string): Promise<void> {
  await changePerson(id, `Revoke the notification feed address of ${id}`, (p) => {
    delete p.feed;
  });
}

/** The person (actor id) a feed token belongs to, or null for a malformed, unknown or revoked one. */
export async function personOfFeedToken(token: string): Promise<string | null> {
  const m = FEED.exec(token);
  if (!m) return null;
  const want = Buffer.from(digest(token), "hex");
  for (const [id, p] of Object.entries((await readAccounts(dataDir())).people ?? {})) {
    if (!p.feed || p.feed.id !== m[1]) continue;
    const have = Buffer.from(p.feed.hash, "hex");
    return have.length === want.length && timingSafeEqual(have, want) ? id : null;
  }
  return null;
}

export type MailSettings = { email: string | null; off: NotificationKind[] };

export const mailSettingsOf = (p: PersonSettings): MailSettings => ({
  email: p.email ?? null,
  off: NOTIFICATION_KINDS.filter((k) => (p.mailOff ?? []).includes(k)),
});

export async function setMailSettings(id: string, settings: MailSettings): Promise<MailSettings> {
  return changePerson(id, `Notification mail settings of ${id}`, (p) => {
    if (settings.email) p.email = settings.email;
    else delete p.email;
    if (settings.off.length) p.mailOff = [...settings.off];
    else delete p.mailOff;
    return mailSettingsOf(p);
  });
}
