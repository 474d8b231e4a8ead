/** The kinds of notification (lib/notifications/derive.ts), and their names in the studio's settings. */
export const NOTIFICATION_KINDS = ["mention", "reply", "review-request", "verdict", "publish"] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const KIND_LABEL: Record<NotificationKind, string> = {
  mention: "Mentions of you",
  reply: "Replies in your threads",
  "review-request": "Review requests to you",
  verdict: "Verdicts on your notes",
  publish: "Publishes of notes you wrote or reviewed",
};
