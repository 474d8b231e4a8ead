/** The events a webhook subscriber can be sent (lib/webhooks/events.ts says what each carries). */
export const EVENT_TYPES = ["note.published", "note.status_changed", "review.requested", "review.verdict", "review.comment", "phase.closed"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
