import { BOUNDARY_LABEL, SECTIONS, STATUS_LABEL, type Note } from "@/lib/notes/schema";
import { phaseWords, type PhaseTitles } from "@/lib/phases/schema";

/**
 * A note as the fields a reader compares between two revisions, in page order, each as text or as
 * a list (tags, related notes, boundaries). What a field is called here is what the diff shows.
 * `titles` are the renamed phases of the commit the page reads (lib/content/phases.ts
 * `phaseTitlesAt`): a note's phase is shown by its title, with the name it carries beside it.
 */

export type FieldValue = { field: string; label: string } & ({ kind: "text"; value: string } | { kind: "list"; value: string[] });

export function comparableFields(note: Note, titles: PhaseTitles = {}): FieldValue[] {
  const text = (field: string, label: string, value: string | undefined): FieldValue => ({ field, label, kind: "text", value: value ?? "" });
  const list = (field: string, label: string, value: string[]): FieldValue => ({ field, label, kind: "list", value });
  return [
    text("title", "Title", note.title),
    text("summary", "Summary", note.summary),
    text("status", "Status", STATUS_LABEL[note.status]),
    list(
      "boundaries",
      "Boundaries",
      note.boundaries.map((b) => BOUNDARY_LABEL[b]),
    ),
    text("phase", "Phase", phaseWords(titles, note.phase)),
    list("tags", "Tags", note.tags),
    text("core", "Core decision", note.core ? `${note.core.rank}. ${note.core.label}` : ""),
    list("related", "Related notes", note.related),
    list("affects", "Governs", note.affects),
    text("supersededBy", "Superseded by", note.superseded_by),
    text("retractionReason", "Retraction reason", note.retraction_reason),
    text("order", "Position in the list", String(note.order)),
    text("provenance", "Provenance", note.provenance ? [note.provenance.source, note.provenance.detail].filter(Boolean).join(": ") : ""),
    ...SECTIONS.map((s) => text(s.key, s.heading, note.sections[s.key])),
  ];
}
