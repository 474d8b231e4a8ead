import type { ReactNode } from "react";
import type { Note } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { BoundaryBadge } from "./boundary-badge";
import { MentionText } from "./mention-text";
import { PhaseLink } from "./phase-link";
import { StatusBadge } from "./status-badge";
import { TagList } from "./tag-list";

/**
 * A note's head as readers see it: id, status, boundaries, core label, title, summary, phase and
 * tags (the phase by its title when renamed: `titles`). `children` adds further facts
 * (<div><dt/><dd/></div>) after the tags. Shared by the public note page and the studio's review page.
 */
export function NoteHead({ note, linkable, titles, children }: { note: Note; linkable: ReadonlySet<string>; titles: PhaseTitles; children?: ReactNode }) {
  return (
    <header className="page-head">
      <p className="note__ids">
        <span className="id">{note.id}</span>
        <StatusBadge status={note.status} />
        {note.boundaries.map((b) => (
          <BoundaryBadge key={b} boundary={b} />
        ))}
        {note.core ? (
          <span className="core-label">
            Core decision {note.core.rank}: {note.core.label}
          </span>
        ) : null}
      </p>
      <h1 id="note-title">{note.title}</h1>
      <p className="lede">
        <MentionText text={note.summary} linkable={linkable} />
      </p>
      <dl className="facts facts--note">
        <div>
          <dt>Phase</dt>
          <dd>
            <PhaseLink phase={note.phase} title={shownPhase(titles, note.phase)} />
          </dd>
        </div>
        <div>
          <dt>Tags</dt>
          <dd>
            <TagList tags={note.tags} />
          </dd>
        </div>
        {note.affects.length ? (
          <div>
            {/* What the note governs (`affects`): agents ask /agents/governing.json which notes govern a change. */}
            <dt>Governs</dt>
            <dd className="governs">
              {note.affects.map((entry, i) => (
                <span key={entry}>
                  {i ? ", " : null}
                  <code>{entry}</code>
                </span>
              ))}
            </dd>
          </div>
        ) : null}
        {children}
      </dl>
    </header>
  );
}
