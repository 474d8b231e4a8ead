import { BOUNDARY_LABEL, STATUS_LABEL, type Note } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { NoteCards, type CardNote } from "./note-cards";

/**
 * Decision records as cards (home, tag and phase pages). The cards are drawn by a client
 * component (components/note-cards.tsx) from only the fields they show, so the page's inline RSC
 * data holds each record's fields once rather than its markup again; the status and boundary words
 * are handed over once per list. A renamed phase's title rides on its cards only (`titles`: the
 * commit's renamed phases, lib/content/phases.ts `phaseTitlesAt`).
 */

const LABELS = { status: STATUS_LABEL, boundary: BOUNDARY_LABEL };

export function NoteList({ notes, label, titles }: { notes: readonly Note[]; label: string; titles: PhaseTitles }) {
  const cards: CardNote[] = notes.map(({ id, title, summary, status, boundaries, phase, tags }) => {
    const shown = shownPhase(titles, phase);
    return { id, title, summary, status, boundaries, phase, ...(shown !== phase ? { phaseTitle: shown } : {}), tags };
  });
  return <NoteCards notes={cards} label={label} labels={LABELS} />;
}
