import { BOUNDARY_LABEL, SECTIONS, STATUS_LABEL, type Note, type SectionKey } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { sectionPlainText } from "./markup-free-text";

/**
 * Every field of a note as searchable plain text, with how much a match there weighs and the
 * name a reader sees ("Matched in Rejected shortcut").
 */

export const SEARCH_FIELDS = [
  { field: "id", label: "ID", boost: 6 },
  { field: "title", label: "Title", boost: 4 },
  { field: "tags", label: "Tags", boost: 3 },
  { field: "summary", label: "Summary", boost: 2.5 },
  { field: "core", label: "Core decision", boost: 2 },
  { field: "phase", label: "Phase", boost: 1.5 },
  { field: "status", label: "Status", boost: 1.5 },
  { field: "boundaries", label: "Boundaries", boost: 1.5 },
  ...SECTIONS.map((s) => ({ field: s.key as string, label: s.heading as string, boost: 1 })),
  { field: "related", label: "Related notes", boost: 0.5 },
] as const satisfies readonly { field: string; label: string; boost: number }[];

export type SearchField = (typeof SEARCH_FIELDS)[number]["field"];

export const FIELD_LABEL: Record<string, string> = Object.fromEntries(SEARCH_FIELDS.map((f) => [f.field, f.label]));

export type SearchDocument = { id: string } & Record<string, string>;

/**
 * A note's phase as search reads it, the `phase` of the note an index is given (./index.ts
 * `searchView`): a renamed phase's title and then, in brackets, the name notes carry, so either
 * finds the note and the passage shows both; a phase never renamed, its name as before. `titles`
 * are the commit's renamed phases (lib/content/phases.ts `phaseTitlesAt`).
 */
export function searchedPhase(titles: PhaseTitles, name: string): string {
  const shown = shownPhase(titles, name);
  return shown === name ? name : `${shown} (${name})`;
}

const SECTION_KEYS = new Set<string>(SECTIONS.map((s) => s.key));

/** One field of `searchDocument(note)`, without converting the others (a returned hit's passage needs one). */
export function searchField(note: Note, field: string): string {
  if (SECTION_KEYS.has(field)) return sectionPlainText(note.sections[field as SectionKey]);
  return shortFields(note)[field] ?? "";
}

export function searchDocument(note: Note): SearchDocument {
  const doc = shortFields(note);
  for (const s of SECTIONS) doc[s.key] = sectionPlainText(note.sections[s.key]);
  return doc;
}

/** Every field but the sections (no Markdown to convert). */
function shortFields(note: Note): SearchDocument {
  return {
    id: note.id,
    title: note.title,
    summary: note.summary,
    tags: note.tags.join(" · "),
    core: note.core?.label ?? "",
    phase: `Phase ${note.phase}`,
    status: STATUS_LABEL[note.status],
    boundaries: note.boundaries.map((b) => BOUNDARY_LABEL[b]).join(" · "),
    related: note.related.join(" "),
  };
}
