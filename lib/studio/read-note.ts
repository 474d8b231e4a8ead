import "server-only";
import type { StudioActor } from "@/lib/auth/identity";
import { loadNoteContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";

/** One note as the studio edits it: its draft, or the published note a draft would start from. */
export async function readNote(_actor: StudioActor, id: string): Promise<NoteView> {
  return viewOf(await loadNoteContext(id));
}
