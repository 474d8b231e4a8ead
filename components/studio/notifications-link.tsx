"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useNotifications } from "@/lib/queries/use-notifications";
import styles from "./notifications.module.css";

/**
 * The header's way to the notifications page, with the unread count (asked every half minute, so it
 * moves without a reload). The count is part of the link's name: "Notifications, 3 unread".
 */
export function NotificationsLink() {
  const { data } = useNotifications();
  const here = usePathname() === "/studio/notifications";
  const unread = data?.unread ?? 0;
  // The name is said in one piece ("Notifications, 3 unread"): the badge is drawn as a box, and a
  // name built from its parts read "Notifications , 3 unread".
  const name = unread > 0 ? `Notifications, ${unread} unread` : "Notifications";
  return (
    <Link className={styles.headerLink} href="/studio/notifications" aria-current={here ? "page" : undefined} aria-label={name}>
      Notifications
      {unread > 0 ? (
        <span className={styles.count} aria-hidden="true">
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </Link>
  );
}
