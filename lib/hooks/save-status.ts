import { SECTIONS } from "@/lib/notes/schema";
import type { NoteFields } from "@/lib/validations/note";

/**
 * What the editor's save bar says, in an author's words: when the note was last saved and how many
 * fields differ from that save ("Saved 2 min ago · 3 unsaved changes"), never refs or commit ids.
 * Pure, so the wording is tested without a browser; the clock is passed in.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "just now", "2 min ago", "3 h ago", "yesterday", or the date for anything older. */
export function relativeTime(iso: string, now: number, timeZone?: string): string {
  const then = Date.parse(iso);
  if (!Number.isFinite(then)) return "at an unknown time";
  const ago = now - then;
  // A clock a little ahead of the server's still says "just now", not "in 3 seconds".
  if (ago < MINUTE) return "just now";
  if (ago < HOUR) return `${Math.floor(ago / MINUTE)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  if (ago < 2 * DAY) return "yesterday";
  return `on ${dayAndTime(iso, timeZone).day}`;
}

/** "3 Dec, 07:38" in the given time zone (the reader's own when undefined, UTC on the server). */
export function dayAndTime(iso: string, timeZone?: string): { day: string; time: string; label: string } {
  const date = new Date(iso);
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    day: "numeric",
    month: "numeric",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const day = `${Number(part("day"))} ${MONTHS[Number(part("month")) - 1]}`;
  const time = `${part("hour")}:${part("minute")}`;
  return { day, time, label: `${day}, ${time}` };
}

/** A revision as people name it: "version of 3 Dec, 07:38"; the short commit id goes in a detail. */
export function versionLabel(iso: string, timeZone?: string): string {
  return `version of ${dayAndTime(iso, timeZone).label}`;
}

const list = (xs: string[]) => xs.map((x) => x.trim()).filter((x) => x !== "");
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The labels of the fields that differ between two versions, in the editor's order. */
export function changedFields(saved: NoteFields, current: NoteFields): string[] {
  const changed: string[] = [];
  if (saved.title.trim() !== current.title.trim()) changed.push("Title");
  if (saved.summary.trim() !== current.summary.trim()) changed.push("Summary");
  if (saved.phase.trim() !== current.phase.trim()) changed.push("Phase");
  if (!same(list(saved.tags), list(current.tags))) changed.push("Tags");
  if (
    !same(
      list(saved.related).map((r) => r.toUpperCase()),
      list(current.related).map((r) => r.toUpperCase()),
    )
  )
    changed.push("Related notes");
  if (!same(list(saved.affects), list(current.affects))) changed.push("Affects");
  if (!same([...saved.boundaries].sort(), [...current.boundaries].sort())) changed.push("Boundaries");
  if (!same(saved.core, current.core)) changed.push("Core");
  for (const { key, heading } of SECTIONS) if (saved.sections[key] !== current.sections[key]) changed.push(heading);
  return changed;
}

export type SaveState = {
  /**
   * "new": never saved, no id yet; "claimed": an id claimed through the API, nothing saved;
   * "published": the public version, no draft; "draft": a saved draft.
   */
  source: "new" | "claimed" | "published" | "draft";
  /** When the version being edited was saved (the last commit that changed the note), if known. */
  savedAt: string | null;
  unsaved: number;
  saving: boolean;
};

/** The save bar's sentence: "Saved 2 min ago · 3 unsaved changes". */
export function saveSummary(state: SaveState, now: number | null, timeZone?: string): string {
  const changes = state.unsaved === 0 ? "no unsaved changes" : `${state.unsaved} unsaved change${state.unsaved === 1 ? "" : "s"}`;
  if (state.saving) return "Saving…";
  if (state.source === "new") return state.unsaved === 0 ? "Not saved yet · the note gets its id on the first save" : `Not saved yet · ${changes}`;
  if (state.source === "claimed") return state.unsaved === 0 ? "Not saved yet" : `Not saved yet · ${changes}`;
  // Before the browser's clock is known (server render, hydration) the absolute time, which both agree on.
  const when = state.savedAt ? (now === null ? `on ${dayAndTime(state.savedAt, "UTC").label} UTC` : relativeTime(state.savedAt, now, timeZone)) : null;
  if (state.source === "published") {
    const head = when ? `Published ${when}` : "Published";
    return state.unsaved === 0 ? `${head} · editing starts a draft` : `${head} · ${changes} (saving starts a draft)`;
  }
  const head = when ? `Saved ${when}` : "Saved";
  return state.unsaved === 0 ? `${head} · all changes saved` : `${head} · ${changes}`;
}
