import { NOTE_ID, SECTIONS, type Note } from "@/lib/notes/schema";

/** Note IDs (AFN-016 …) written anywhere in a note's sections or summary, in order of first mention. */
const MENTION = new RegExp(`\\b${NOTE_ID.source.slice(1, -1)}\\b`, "g");

export function mentionedIds(note: Note): string[] {
  const text = [note.summary, ...SECTIONS.map((s) => note.sections[s.key])].join("\n");
  return [...new Set(text.match(MENTION) ?? [])].filter((id) => id !== note.id);
}
