import { NOTE_ID } from "@/lib/notes/schema";

/** "AFN-016.md" → the note ID and the format, or what is wrong with the name. */
export function parseFileName<F extends string>(file: string, formats: readonly F[]): { ok: true; id: string; format: F } | { ok: false; error: string } {
  const dot = file.lastIndexOf(".");
  const id = dot < 0 ? file : file.slice(0, dot);
  const format = dot < 0 ? "" : file.slice(dot + 1);
  if (!NOTE_ID.test(id)) return { ok: false, error: `"${id}" is not a note ID (expected one like AFN-016)` };
  if (!(formats as readonly string[]).includes(format)) {
    const problem = format ? `.${format} is not one of its formats` : "names no format";
    return { ok: false, error: `"${file}" ${problem}; ask for ${formats.map((f) => `${id}.${f}`).join(" or ")}` };
  }
  return { ok: true, id, format: format as F };
}
