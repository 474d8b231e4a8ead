"use client";

import Link from "next/link";
import { useState } from "react";
import type { NotificationList, PersonNotification } from "@/lib/notifications/notifications";
import { useMarkRead, useMarkUnread, useNotifications } from "@/lib/queries/use-notifications";
import { ChangeTime } from "@/components/studio/change-time";
import { Button } from "@/components/ui/button";
import styles from "@/components/studio/notifications.module.css";

const KIND_WORD: Record<PersonNotification["kind"], string> = {
  mention: "Mention",
  reply: "Reply",
  "review-request": "Review request",
  verdict: "Verdict",
  publish: "Published",
};

/**
 * The notifications page: newest first, unread ones marked (a bar and bold text, and "unread" in
 * words), each one link to the exact thread, review or revision. Following a link marks it read;
 * each has a button to mark it read or unread, and one button marks all read. Everything is a link
 * or a button, so the page is walked with Tab and Enter.
 */
export default function NotificationsPageClient({ initial }: { initial: NotificationList }) {
  const { data: list = initial } = useNotifications(initial);
  const markRead = useMarkRead();
  const markUnread = useMarkUnread();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const shown = onlyUnread ? list.items.filter((n) => !n.read) : list.items;
  const failed = markRead.error ?? markUnread.error;

  return (
    <div className={styles.page}>
      <header>
        <h1>Notifications</h1>
        <p className={styles.meta}>
          Mentions, replies in your threads, review requests, verdicts on your notes and publishes of notes you wrote or reviewed.{" "}
          <Link href="/studio/notifications/settings">Mail and feed settings</Link>
        </p>
      </header>
      <div className={styles.toolbar} role="group" aria-label="Notifications">
        <p className={styles.meta} aria-live="polite">
          {list.unread === 0 ? "Nothing unread." : `${list.unread} unread.`}
        </p>
        <Button size="small" aria-pressed={onlyUnread} onClick={() => setOnlyUnread((v) => !v)}>
          Show unread only
        </Button>
        <Button size="small" disabled={list.unread === 0 || markRead.isPending} onClick={() => markRead.mutate({ all: true })}>
          Mark all read
        </Button>
      </div>
      {failed ? (
        <p role="alert" className={styles.meta}>
          {failed.message}
        </p>
      ) : null}
      {shown.length === 0 ? (
        <p className={styles.empty}>{onlyUnread ? "No unread notifications." : "No notifications yet."}</p>
      ) : (
        <ul className={styles.items}>
          {shown.map((n) => (
            <li key={`${n.kind}-${n.id}`} className={styles.item} data-read={n.read}>
              <Link className={styles.text} href={n.href} onClick={() => (n.read ? undefined : markRead.mutate({ ids: [n.id] }))}>
                {n.text}
              </Link>
              <Button
                size="small"
                variant="quiet"
                aria-label={`${n.read ? "Mark unread" : "Mark read"}: ${n.text}`}
                onClick={() => (n.read ? markUnread.mutate(n.id) : markRead.mutate({ ids: [n.id] }))}
              >
                {n.read ? "Mark unread" : "Mark read"}
              </Button>
              {n.excerpt ? <p className={styles.excerpt}>“{n.excerpt}”</p> : null}
              <p className={styles.facts}>
                <span>{KIND_WORD[n.kind]}</span>
                <ChangeTime iso={n.at} />
                <span>{n.read ? "read" : "unread"}</span>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
