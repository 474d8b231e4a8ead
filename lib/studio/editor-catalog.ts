import { getContentStore } from "@/lib/working-copy/content-store";
import type { Oid } from "@/lib/store/types";
import { compareIds, isPublishedStatus } from "@/lib/notes/schema";
import type { PhaseTitles } from "@/lib/phases/schema";
import { mainFacts } from "./note-context";
import { MAIN_REF, noMain } from "./refs";

/**
 * What the editor's pickers offer, read from main once per page: the phases a note may name, the
 * published notes (for "Related notes" and the note-link picker) and the tags already in use.
 * Suggestions only: the save is judged by lib/rules/accept-write.ts whatever the browser sends.
 */
export type EditorCatalog = {
  main: Oid;
  phases: string[];
  /** The renamed phases' titles (name → title): the picker shows a title and sends the name. */
  phaseTitles: PhaseTitles;
  notes: { id: string; title: string }[];
  tags: string[];
};

export async function editorCatalog(): Promise<EditorCatalog> {
  const store = await getContentStore();
  const head = await store.resolve(MAIN_REF);
  if (!head) throw noMain();
  const main = await mainFacts(store, head);
  const published = main.snapshot.notes.flatMap((n) => (n.ok && n.id === n.note.id && isPublishedStatus(n.note.status) ? [n.note] : []));
  return {
    main: head,
    phases: main.phases,
    phaseTitles: main.phaseTitles,
    notes: published.map((n) => ({ id: n.id, title: n.title })).sort((a, b) => compareIds(a.id, b.id)),
    tags: [...new Set(published.flatMap((n) => n.tags))].sort((a, b) => a.localeCompare(b)),
  };
}
