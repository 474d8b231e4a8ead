import type { Note } from "@/lib/notes/schema";
import type { RankedHit } from "./engine";

/**
 * The messages between the server and its search worker (./worker.ts). They are applied in the
 * order sent: "open" names the file the index is persisted in and loads it if it holds one
 * (answered with the commit it holds, or null), "clear" forgets a loaded index, notes are added or
 * moved, then "at" names the commit the index now holds, then queries on that commit follow.
 * "save" writes the index at once (otherwise the worker writes it when a new commit has settled).
 * Only "open", "at", "search" and "save" are answered.
 */
export type ToWorker =
  | { t: "open"; id: number; file: string }
  | { t: "clear" }
  | { t: "add"; notes: Note[] }
  | { t: "move"; changes: { old: Note | null; note: Note | null }[] }
  | { t: "at"; id: number; commit: string }
  | { t: "search"; id: number; commit: string; query: string; limit: number }
  | { t: "save"; id: number };

export type FromWorker = { id: number; ok: true; value: RankedHit[] | string | null } | { id: number; ok: false; error: string };
