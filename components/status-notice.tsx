import { BOUNDARY_MEANING, STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { noteUrl } from "@/lib/web/urls";
import { BoundaryBadge } from "./boundary-badge";
import { StatusBadge } from "./status-badge";

/**
 * "How far to rely on this note": the status and each boundary in words, as the hard limits they
 * are for a reader relying on the note. Shared by the public note page and the studio's review
 * page, so a reviewer reads exactly what the public will.
 */
export function StatusNotice({ note, successor }: { note: Note; successor?: { id: string; title: string } }) {
  return (
    <aside className={`notice notice--${note.status}`} aria-labelledby="notice-heading">
      <h2 id="notice-heading" className="notice__heading">
        How far to rely on this note
      </h2>
      <dl>
        <div>
          <dt>
            <StatusBadge status={note.status} />
          </dt>
          <dd>{STATUS_MEANING[note.status]}</dd>
        </div>
        {note.boundaries.map((b) => (
          <div key={b}>
            <dt>
              <BoundaryBadge boundary={b} />
            </dt>
            <dd>{BOUNDARY_MEANING[b]}</dd>
          </div>
        ))}
      </dl>
      {note.boundaries.length === 0 ? (
        <p className="notice__plain">No structural-only or pinned-not-supported boundary applies; the claim boundary below still limits what it claims.</p>
      ) : null}
      {note.superseded_by ? (
        <p>Superseded by {successor ? <a href={noteUrl(successor.id)}>{`${successor.id}: ${successor.title}`}</a> : note.superseded_by}.</p>
      ) : null}
      {note.retraction_reason ? <p>Why it was retracted: {note.retraction_reason}</p> : null}
    </aside>
  );
}
