/** Finding published notes by id or title, for the editor's related-notes and note-link pickers. */

export type NoteChoice = { id: string; title: string };

const fold = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * The notes matching what was typed: every word must occur in the id or the title, whatever the
 * case or accents; an id typed as a number ("11", "afn 11", "AFN-011") finds that note first.
 */
export function matchNotes(notes: NoteChoice[], query: string): NoteChoice[] {
  const words = fold(query)
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length === 0) return notes;
  const number = /^(?:[a-z]+[-\s]?)?0*(\d+)$/.exec(fold(query).trim())?.[1];
  const hits = notes.filter((n) => {
    const text = fold(`${n.id} ${n.title}`);
    return words.every((w) => text.includes(w)) || (number !== undefined && Number(n.id.replace(/^\D+/, "")) === Number(number));
  });
  const exact = (n: NoteChoice) => (number !== undefined && Number(n.id.replace(/^\D+/, "")) === Number(number) ? 0 : 1);
  return hits.sort((a, b) => exact(a) - exact(b));
}

/** The note id in what a picker's input holds: "AFN-011", "afn-011", or "AFN-011 Title …" from a suggestion. */
export function noteIdIn(text: string): string | null {
  const match = /^\s*([A-Za-z]+-\d+)\b/.exec(text);
  return match ? match[1]!.toUpperCase() : null;
}
