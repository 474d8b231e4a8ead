import { relativeTime } from "./save-status";

/**
 * When something in the studio happened (a comment, a verdict, a note's last change), as a reader
 * expects it: "2 h ago" or "yesterday" while it is recent, otherwise the date as the public pages
 * write it ("3 December 2026", components/revision-date.tsx), with the exact time for a title.
 * Dates are UTC, like the public pages', so the server and the browser write the same text.
 */

const RECENT = 2 * 24 * 60 * 60_000;

function utc(iso: string, options: Intl.DateTimeFormatOptions): string | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date.toLocaleString("en-GB", { ...options, timeZone: "UTC" });
}

/** "3 December 2026": the public pages' date of a revision. */
export function publicDate(iso: string): string {
  return utc(iso, { day: "numeric", month: "long", year: "numeric" }) ?? iso;
}

/** "3 December 2026, 17:24 UTC": the public history's exact time, for a title. */
export function exactTime(iso: string): string {
  const time = utc(iso, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
  return time === null ? iso : `${publicDate(iso)}, ${time} UTC`;
}

/**
 * What a change's time reads: relative within the last two days, the date before that. `now` is
 * null until the browser's clock is known (server render, hydration): the date then, which both
 * sides agree on.
 */
export function changeTimeLabel(iso: string, now: number | null): string {
  const then = Date.parse(iso);
  if (now === null || !Number.isFinite(then) || now - then >= RECENT) return publicDate(iso);
  return relativeTime(iso, now);
}
