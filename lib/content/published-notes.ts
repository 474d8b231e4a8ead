import type { Note } from "@/lib/notes/schema";
import { isPublishedStatus } from "@/lib/notes/schema";
import type { Snapshot } from "@/lib/working-copy/content-store";

/** The published notes of a snapshot, by id. */
export function publishedNotes(snapshot: Snapshot): Map<string, Note> {
  const out = new Map<string, Note>();
  for (const s of snapshot.notes) if (s.ok && s.id === s.note.id && isPublishedStatus(s.note.status)) out.set(s.id, s.note);
  return out;
}
