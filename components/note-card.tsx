import Link from "next/link";
import type { Note } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/render/urls";
import { BoundaryBadge } from "./boundary-badge";
import { PhaseLink } from "./phase-link";
import { StatusBadge } from "./status-badge";
import { TagList } from "./tag-list";

/** One decision record in a list: ID and status, title, summary, phase and tags (folded to a count on a phone). */
export function NoteCard({ note, headingLevel = 3 }: { note: Note; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as const;
  return (
    <article className="card" aria-labelledby={`card-${note.id}`}>
      <p className="card__meta">
        <span className="id">{note.id}</span>
        <StatusBadge status={note.status} />
        {note.boundaries.map((b) => (
          <BoundaryBadge key={b} boundary={b} />
        ))}
      </p>
      <Heading className="card__title" id={`card-${note.id}`}>
        <Link href={noteUrl(note.id)}>{note.title}</Link>
      </Heading>
      <p className="card__summary">{note.summary}</p>
      <div className="card__foot">
        <PhaseLink phase={note.phase} />
        <TagList tags={note.tags} label={`Tags of ${note.id}`} />
        {/* On a phone the tags fold to their count (app/styles/archive.css); the note lists them. */}
        {note.tags.length > 0 ? <span className="tags-more">{note.tags.length === 1 ? "1 tag" : `${note.tags.length} tags`}</span> : null}
      </div>
    </article>
  );
}

export function NoteList({ notes, label }: { notes: readonly Note[]; label: string }) {
  return (
    <ol className="records" aria-label={label}>
      {notes.map((note) => (
        <li key={note.id}>
          <NoteCard note={note} />
        </li>
      ))}
    </ol>
  );
}
