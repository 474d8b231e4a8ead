import type { Note } from "@/lib/notes/schema";
import { phaseTitleField, type PhaseTitles } from "@/lib/phases/schema";
import { limitFlags, limitsOf } from "./limits";
import { mayHoldMarkup } from "@/lib/search/markup-free-text";
import { markdownToLine } from "@/lib/render/plain-text";
import type { IndexEntry } from "./schemas";
import { clipToTokens, firstSentence, tokens } from "./tokens";
import type { AgentUrls } from "./urls";

/**
 * One entry of the compact index per note: enough to decide whether to load its capsule, and no
 * more. The Markdown entry is one llmstxt.org link line, the same in /llms.txt and
 * /agents/index.md: ID and title linking to the capsule, then status, hard boundaries, core rank
 * and the decision in one line. It is budgeted in real tokens: the decision gets what the rest of
 * the line leaves of ENTRY_BUDGET, so an agent can read the whole index and one capsule in about
 * 2,500 tokens. Phase and tags are in the JSON entry and the capsule, not in the line. A renamed
 * phase's title (`titles`: the commit's, lib/content/phases.ts `phaseTitlesAt`) is the JSON entry's
 * `phase_title` beside `phase`, the name notes carry, as in a note's JSON.
 */

export const ENTRY_BUDGET = 60;
/** The fewest tokens of decision a line keeps: below this a clipped decision stops saying anything. */
export const DECISION_FLOOR = 8;

type EntryNote = Pick<Note, "id" | "title" | "summary" | "status" | "boundaries" | "phase" | "core" | "tags" | "sections">;

export function indexEntry(note: EntryNote, urls: AgentUrls, titles: PhaseTitles): IndexEntry {
  return {
    id: note.id,
    title: note.title,
    decision: oneLineDecision(note, urls),
    status: note.status as IndexEntry["status"],
    boundaries: [...note.boundaries],
    flags: limitFlags(note),
    limits: limitsOf(note),
    tags: [...note.tags],
    phase: note.phase,
    ...phaseTitleField(titles, note.phase),
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

/** The note's line of the index: `- [AFN-016: Title](capsule URL): status, boundaries; core 1. Decision.` */
export function indexEntryMarkdown(note: EntryNote, urls: AgentUrls): string {
  return entryLine(note, urls, oneLineDecision(note, urls));
}

function entryLine(note: EntryNote, urls: AgentUrls, decision: string): string {
  const status = [note.status, ...note.boundaries].join(", ");
  const core = note.core ? `; core ${note.core.rank}` : "";
  // Brackets in a title would end the link text early: the grammar has no escape we can rely on.
  const name = `${note.id}: ${note.title}`.replace(/[[\]]/g, "");
  return `- [${name}](${urls.capsule(note.id, "md")}): ${status}${core}. ${decision}`.trimEnd();
}

/** The first sentence of the Decision (the summary while a note has no decision), fitted to the line. */
export function oneLineDecision(note: EntryNote, urls: AgentUrls): string {
  const sentence = leadingSentence(note.sections.decision, note.summary).replace(/\s+/g, " ");
  // Token counts are not quite additive across a join, so fit against the whole line.
  let room = ENTRY_BUDGET - tokens(entryLine(note, urls, ""));
  for (;;) {
    const decision = clipToTokens(sentence, Math.max(DECISION_FLOOR, room));
    if (room <= DECISION_FLOOR || tokens(entryLine(note, urls, decision)) <= ENTRY_BUDGET) return decision;
    room--;
  }
}

/**
 * `firstSentence(markdownToLine(decision) || summary)`, without parsing the whole Decision when its
 * first paragraph is plain words that already hold a whole sentence: parsing a 2 kB section took
 * most of an index entry's millisecond (an agent's search builds ten). A paragraph with no possible
 * markup (no link, emphasis, HTML, entity, numbered list, nesting or indentation, and nothing GFM
 * would autolink; a `- ` item is read as "- " and its words) reads as its own words on one line,
 * and nothing after its blank line can change it (a later link definition needs a bracket in it),
 * so its first sentence is the whole line's. Otherwise, or when the
 * sentence runs past the paragraph, the whole section is converted as before (a property test
 * holds the two equal).
 */
export function leadingSentence(decision: string, summary: string): string {
  const paragraph = /^[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*/.exec(decision)?.[0];
  if (paragraph && !mayHoldMarkup(paragraph) && !/www\.|:\/\/|@/i.test(paragraph)) {
    const line = paragraph.replace(/\s+/g, " ").trim();
    const sentence = firstSentence(line);
    if (sentence.length < line.length) return sentence;
  }
  return firstSentence(markdownToLine(decision) || summary);
}
