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
  return (
    <Link className={styles.headerLink} href="/studio/notifications" aria-current={here ? "page" : undefined}>
      Notifications
      {unread > 0 ? (
        <span className={styles.count}>
          <span className="visually-hidden">, </span>
          {unread > 99 ? "99+" : unread}
          <span className="visually-hidden"> unread</span>
        </span>
      ) : null}
    </Link>
  );
}
