import type { PhaseView } from "@/lib/content/phases";
import { noteUrl } from "@/lib/web/urls";
import { MentionText } from "./mention-text";

/** A phase's status, dates and closeout record: how the closeout contract (AFN-015) was met. */
export function PhaseRecord({ view, linkable }: { view: PhaseView; linkable: ReadonlyMap<string, unknown> }) {
  const { phase, delta } = view;
  const record = phase.closeout;
  return (
    <section aria-labelledby="phase-record" className="phase-record">
      <h2 id="phase-record">Closeout</h2>
      <dl className="facts">
        <div>
          <dt>Status</dt>
          <dd>
            <strong>{phase.status === "closed" ? "closed" : "open"}</strong>
          </dd>
        </div>
        {phase.opened && (
          <div>
            <dt>Opened</dt>
            <dd>
              <time dateTime={phase.opened}>{phase.opened}</time>
            </dd>
          </div>
        )}
        {phase.closed && (
          <div>
            <dt>Closed</dt>
            <dd>
              <time dateTime={phase.closed}>{phase.closed}</time>
            </dd>
          </div>
        )}
      </dl>
      {record?.kind === "delta" && (
        <p data-testid="closeout-record">
          Closed by {record.by} on {record.at} with a decision delta:{" "}
          {record.notes.map((id, i) => (
            <span key={id}>
              {i > 0 && ", "}
              {linkable.has(id) ? <a href={noteUrl(id)}>{id}</a> : id}
            </span>
          ))}
          .
        </p>
      )}
      {record?.kind === "no-delta" && (
        <div data-testid="closeout-record">
          <p>
            Closed by {record.by} on {record.at} with <strong>no new decision delta</strong>, because:
          </p>
          <blockquote>
            <MentionText text={record.why} linkable={linkable} />
          </blockquote>
        </div>
      )}
      {phase.status === "open" && (
        <p>
          {delta.length > 0
            ? `Open. Its decision delta so far: ${delta.join(", ")}.`
            : "Open. No note of this phase has become verified while it was open; it closes with a new verified note or an explicit no-new-decision record."}
        </p>
      )}
      {phase.reopenings.length > 0 && (
        <>
          <h3>Reopened</h3>
          <ul>
            {phase.reopenings.map((r) => (
              <li key={`${r.at}-${r.by}`}>
                {r.at}, by {r.by}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
