import { scanNote } from "@/lib/rules/archive-policy";
import type { Note } from "@/lib/notes/schema";
import type { Where } from "@/lib/rules/api-errors";
import { fieldOfPath } from "@/lib/validations/note";

/** Archive-policy findings of a note, as the API reports places: field, line and column within it. */
export async function policyFindings(note: Note): Promise<Where[]> {
  const findings = await scanNote(note);
  return findings.map((f) => ({
    field: fieldOfPath(f.field.split(".")),
    line: f.line,
    column: f.column,
    rule: f.rule,
    message: f.message,
    excerpt: f.excerpt,
  }));
}
