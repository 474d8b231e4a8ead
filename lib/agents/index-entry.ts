import type { Note } from "@/lib/notes/schema";
import { limitFlags, limitsOf } from "./limits";
import { markdownToLine } from "./plain-text";
import type { IndexEntry } from "./schemas";
import { clipToTokens, firstSentence, tokens } from "./tokens";
import type { AgentUrls } from "./urls";

/**
 * One entry of the compact index per note: enough to decide whether to load its capsule, and no
 * more. The Markdown entry is budgeted in real tokens: the one-line decision gets what the other
 * fields leave of ENTRY_BUDGET, never less than DECISION_FLOOR, so an entry outgrows the budget
 * only when its title, phase and tags alone fill it. The Markdown index states its URL patterns
 * once instead of repeating two links per entry (20 tokens each); the JSON entry carries them.
 */

export const ENTRY_BUDGET = 60;
/** The fewest tokens of decision an entry keeps: below this a clipped decision stops saying anything. */
export const DECISION_FLOOR = 16;

type EntryNote = Pick<Note, "id" | "title" | "summary" | "status" | "boundaries" | "phase" | "core" | "tags" | "sections">;

export function indexEntry(note: EntryNote, urls: AgentUrls): IndexEntry {
  return {
    id: note.id,
    title: note.title,
    decision: oneLineDecision(note),
    status: note.status as IndexEntry["status"],
    boundaries: [...note.boundaries],
    flags: limitFlags(note),
    limits: limitsOf(note),
    tags: [...note.tags],
    phase: note.phase,
    core_rank: note.core?.rank ?? null,
    urls: {
      capsule_md: urls.capsule(note.id, "md"),
      capsule_json: urls.capsule(note.id, "json"),
      note_html: urls.note(note.id),
      note_md: urls.noteAs(note.id, "md"),
      note_txt: urls.noteAs(note.id, "txt"),
      note_json: urls.noteAs(note.id, "json"),
    },
  };
}

export function indexEntryMarkdown(note: EntryNote): string {
  return entryMarkdown(note, oneLineDecision(note));
}

function entryMarkdown(note: EntryNote, decision: string): string {
  const status = [note.status, ...note.boundaries].join(", ");
  const core = note.core ? ` · core ${note.core.rank}` : "";
  const tags = note.tags.length ? ` · ${note.tags.join(", ")}` : "";
  return `- ${note.id} ${note.title} — ${status} · phase ${note.phase}${core}${tags}\n  Decision: ${decision}`;
}

/** The first sentence of the Decision (the summary while a note has no decision), fitted to the entry. */
export function oneLineDecision(note: EntryNote): string {
  const sentence = firstSentence(markdownToLine(note.sections.decision) || note.summary);
  // Token counts are not quite additive across a join, so fit against the whole entry.
  let room = ENTRY_BUDGET - tokens(entryMarkdown(note, ""));
  for (;;) {
    const decision = clipToTokens(sentence, Math.max(DECISION_FLOOR, room));
    if (room <= DECISION_FLOOR || tokens(entryMarkdown(note, decision)) <= ENTRY_BUDGET) return decision;
    room--;
  }
}
