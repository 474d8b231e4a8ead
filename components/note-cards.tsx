"use client";

import type { Boundary, Status } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/web/urls";
import { BoundaryBadgeView, StatusBadgeView } from "./badge-views";
import { PhaseLink } from "./phase-link";
import { TagList } from "./tag-list";

/**
 * A list of decision records as cards. A client component on purpose: the page's inline RSC data
 * then carries each card's fields once (about 250 bytes) instead of its whole element tree (about
 * 1.9 KB of markup described as JSON, beside the same markup as HTML), which kept home at 221 KB
 * with 50 cards at 10,000 notes. It draws exactly what the server drew; it has no state.
 */

/** What a card shows of a note; `phaseTitle` only when its phase was renamed (the name it is shown by). */
export type CardNote = {
  id: string;
  title: string;
  summary: string;
  status: Status;
  boundaries: Boundary[];
  phase: string;
  phaseTitle?: string;
  tags: string[];
};
export type CardLabels = { status: Record<Status, string>; boundary: Record<Boundary, string> };

/** One decision record in a list: ID and status, title, summary, phase and tags (folded to a count on a phone). */
function NoteCard({ note, labels }: { note: CardNote; labels: CardLabels }) {
  return (
    <article className="card" aria-labelledby={`card-${note.id}`}>
      <p className="card__meta">
        <span className="id">{note.id}</span>
        <StatusBadgeView status={note.status} label={labels.status[note.status]} />
        {note.boundaries.map((b) => (
          <BoundaryBadgeView key={b} boundary={b} label={labels.boundary[b]} />
        ))}
      </p>
      <h3 className="card__title" id={`card-${note.id}`}>
        <a href={noteUrl(note.id)}>{note.title}</a>
      </h3>
      <p className="card__summary">{note.summary}</p>
      <div className="card__foot">
        <PhaseLink phase={note.phase} title={note.phaseTitle} />
        <TagList tags={note.tags} label={`Tags of ${note.id}`} />
        {/* On a phone the tags fold to their count (app/styles/archive.css); the note lists them. */}
        {note.tags.length > 0 ? <span className="tags-more">{note.tags.length === 1 ? "1 tag" : `${note.tags.length} tags`}</span> : null}
      </div>
    </article>
  );
}

export function NoteCards({ notes, label, labels }: { notes: readonly CardNote[]; label: string; labels: CardLabels }) {
  return (
    <ol className="records" aria-label={label}>
      {notes.map((note) => (
        <li key={note.id}>
          <NoteCard note={note} labels={labels} />
        </li>
      ))}
    </ol>
  );
}
