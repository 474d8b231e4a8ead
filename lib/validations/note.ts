import { z } from "zod";
import { noteSchema, SECTIONS, type Note, type NoteInput, type SectionKey } from "@/lib/notes/schema";
import { sectionShapeProblems } from "@/lib/notes/section-shape";
import { affectsProblems } from "@/lib/rules/affects";

/**
 * The editor's fields and how they become a note. Imported by the browser (validation as you
 * type) and by the API (validation before a commit): both run lib/notes/schema.ts on the same
 * composed note, so they cannot disagree about what is valid or where the problem is.
 */

const sectionsShape = Object.fromEntries(SECTIONS.map((s) => [s.key, z.string()])) as Record<SectionKey, z.ZodString>;

/** What an author edits. Status, id and order are not here: they change only through actions. */
export const noteFieldsSchema = z
  .object({
    title: z.string(),
    summary: z.string(),
    phase: z.string(),
    tags: z.array(z.string()).max(100),
    related: z.array(z.string()).max(200),
    boundaries: z.array(z.string()).max(10),
    // Optional in a request, so a client from before the field still saves (as "governs nothing").
    affects: z.array(z.string()).max(100).default([]),
    core: z.object({ rank: z.number(), label: z.string() }).strict().nullable(),
    sections: z.object(sectionsShape).strict(),
  })
  .strict();
export type NoteFields = z.infer<typeof noteFieldsSchema>;

/** The parts of a note that no field edits. */
export type NoteMeta = Pick<Note, "id" | "status" | "order"> & Partial<Pick<Note, "superseded_by" | "retraction_reason" | "provenance">>;

export function blankFields(): NoteFields {
  return {
    title: "",
    summary: "",
    phase: "",
    tags: [],
    related: [],
    boundaries: [],
    affects: [],
    core: null,
    sections: { decision: "", invariant: "", rejectedShortcut: "", evidence: "", claimBoundary: "", notes: "" },
  };
}

export function fieldsOf(note: Note): NoteFields {
  return {
    title: note.title,
    summary: note.summary,
    phase: note.phase,
    tags: [...note.tags],
    related: [...note.related],
    boundaries: [...note.boundaries],
    affects: [...note.affects],
    core: note.core ? { ...note.core } : null,
    sections: { ...note.sections },
  };
}

const list = (xs: string[]) => xs.map((x) => x.trim()).filter((x) => x !== "");

/** The note these fields make, with surrounding spaces and empty list items dropped as a person means them. */
export function composeNote(meta: NoteMeta, fields: NoteFields): NoteInput {
  const note: NoteInput = {
    id: meta.id,
    title: fields.title.trim(),
    summary: fields.summary.trim(),
    status: meta.status,
    boundaries: fields.boundaries as NoteInput["boundaries"],
    phase: fields.phase.trim(),
    tags: list(fields.tags),
    order: meta.order,
    related: list(fields.related).map((r) => r.toUpperCase()),
    affects: list(fields.affects),
    sections: { ...fields.sections },
  };
  if (fields.core) note.core = { rank: fields.core.rank, label: fields.core.label.trim() };
  if (meta.superseded_by) note.superseded_by = meta.superseded_by;
  if (meta.retraction_reason) note.retraction_reason = meta.retraction_reason;
  if (meta.provenance) note.provenance = meta.provenance;
  return note;
}

/** A problem at one field: "title", "tags", "core.rank", "sections.evidence". */
export type FieldProblem = { field: string; message: string };

export function validateNote(input: NoteInput): { ok: true; note: Note } | { ok: false; problems: FieldProblem[] } {
  const result = noteSchema.safeParse(input);
  if (result.success) {
    // What a save refuses beyond the schema (lib/rules/accept-write.ts): the same words, as you type.
    const shape = [
      ...affectsProblems(result.data.affects).map((p) => ({ field: "affects", message: p.message })),
      ...SECTIONS.flatMap(({ key, heading }) =>
        sectionShapeProblems(heading, result.data.sections[key]).map((p) => ({ field: `sections.${key}`, message: p.message })),
      ),
    ];
    return shape.length ? { ok: false, problems: shape } : { ok: true, note: result.data };
  }
  return { ok: false, problems: result.error.issues.map((i) => ({ field: fieldOfPath(i.path), message: i.message })) };
}

/** A schema or policy path, as the field the editor shows it at ("tags.2" is the Tags field). */
export function fieldOfPath(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === "sections" || first === "core" || first === "provenance") return second ? `${first}.${second}` : first;
  return first ?? "note";
}

/** Field paths in the order the editor shows them, with their labels. */
export const FIELD_LABELS: Record<string, string> = {
  title: "Title",
  summary: "Summary",
  phase: "Phase",
  tags: "Tags",
  related: "Related notes",
  boundaries: "Boundaries",
  affects: "Affects",
  "core.rank": "Core rank",
  "core.label": "Core label",
  ...Object.fromEntries(SECTIONS.map((s) => [`sections.${s.key}`, s.heading])),
};

export function sameFields(a: NoteFields, b: NoteFields): boolean {
  return JSON.stringify(normalizeFields(a)) === JSON.stringify(normalizeFields(b));
}

function normalizeFields(f: NoteFields): NoteFields {
  return { ...f, tags: list(f.tags), related: list(f.related), affects: list(f.affects), core: f.core ? { ...f.core } : null, sections: { ...f.sections } };
}
