import Link from "next/link";
import type { Note } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/render/urls";
import { BoundaryBadge } from "./boundary-badge";
import { PhaseLink } from "./phase-link";
import { StatusBadge } from "./status-badge";
import { TagList } from "./tag-list";

/** One decision record in a list: ID and status, title, summary, phase and tags. */
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
