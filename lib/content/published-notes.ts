import type { Note } from "@/lib/notes/schema";
import { isPublishedStatus } from "@/lib/notes/schema";
import type { Snapshot } from "@/lib/working-copy/content-store";

type Stored = Snapshot["notes"][number];

/** A file's note when it is published: valid, named by its own id, with a published status. */
const published = (s: Stored): Note | null => (s.ok && s.id === s.note.id && isPublishedStatus(s.note.status) ? s.note : null);

/** The published notes of a snapshot, by id. */
export function publishedNotes(snapshot: Snapshot): Map<string, Note> {
  const out = new Map<string, Note>();
  for (const s of snapshot.notes) {
    const note = published(s);
    if (note) out.set(s.id, note);
  }
  return out;
}

/**
 * The published notes of a snapshot from those of the snapshot its delta starts from: what
 * `publishedNotes` would answer (a file's id is its name, so only its own file can put an id there).
 */
export function patchPublished(before: ReadonlyMap<string, Note>, delta: NonNullable<Snapshot["delta"]>): Map<string, Note> {
  const out = new Map(before);
  for (const s of delta.removed) out.delete(s.id);
  for (const s of delta.changed) {
    const note = published(s);
    if (note) out.set(s.id, note);
    else out.delete(s.id);
  }
  return out;
}
