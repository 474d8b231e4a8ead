import type { Note } from "@/lib/notes/schema";
import type { RankedHit } from "./engine";

/**
 * The messages between the server and its search worker (./worker.ts). They are applied in the
 * order sent: notes are added or moved, then "at" names the commit the index now holds, then
 * queries on that commit follow. Only "at" and "search" are answered.
 */
export type ToWorker =
  | { t: "add"; notes: Note[] }
  | { t: "move"; changes: { old: Note | null; note: Note | null }[] }
  | { t: "at"; id: number; commit: string }
  | { t: "search"; id: number; commit: string; query: string; limit: number };

export type FromWorker = { id: number; ok: true; value: RankedHit[] | null } | { id: number; ok: false; error: string };
