import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { BoundaryBadge } from "@/components/boundary-badge";
import { CommitLine } from "@/components/commit-line";
import { MentionText } from "@/components/mention-text";
import { NoteSection } from "@/components/note-section";
import { PhaseLink } from "@/components/phase-link";
import { RevisionDate } from "@/components/revision-date";
import { StatusBadge } from "@/components/status-badge";
import { TagList } from "@/components/tag-list";
import { type PublishedView } from "@/lib/content/published";
import { BOUNDARY_MEANING, SECTIONS, STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { lastChange } from "@/lib/public/last-change";
import { pageMetadata } from "@/lib/public/meta";
import { loadPublishedNote } from "@/lib/public/published-note";
import { historyUrl, noteUrl } from "@/lib/render/urls";

/** One published note: every section from Markdown, what its status and boundaries mean, its links. */

type Props = { params: Promise<{ id: string }> };

// The five sections every decision record has; "Notes" is shown only when written.
const ALWAYS = new Set(["decision", "invariant", "rejectedShortcut", "evidence", "claimBoundary"]);

const load = loadPublishedNote;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Note not found", robots: { index: false } };
  const { note } = found;
  const meta = pageMetadata({ title: `${note.id}: ${note.title}`, description: note.summary, path: noteUrl(note.id), type: "article" });
  return {
    ...meta,
    // The same note for agents, under the same path (served by the agent routes).
    alternates: {
      canonical: noteUrl(note.id),
      types: {
        "text/markdown": `${noteUrl(note.id)}.md`,
        "text/plain": `${noteUrl(note.id)}.txt`,
        "application/json": `${noteUrl(note.id)}.json`,
      },
    },
    keywords: note.tags,
  };
}

export default async function NotePage({ params }: Props) {
  const found = await load(params);
  if (!found) notFound();
  const { view, note } = found;
  const changed = await lastChange(view, note.id);
  const linkable = new Set(view.byId.keys());
  const related = note.related.flatMap((id) => view.byId.get(id) ?? []);
  const referencedBy = (view.backlinks.get(note.id) ?? []).flatMap((id) => view.byId.get(id) ?? []);

  return (
    <article className="note" aria-labelledby="note-title">
      <header className="page-head">
        <p className="note__ids">
          <span className="id">{note.id}</span>
          <StatusBadge status={note.status} />
          {note.boundaries.map((b) => (
            <BoundaryBadge key={b} boundary={b} />
          ))}
          {note.core ? <span className="core-label">Core decision {note.core.rank}: {note.core.label}</span> : null}
        </p>
        <h1 id="note-title">{note.title}</h1>
        <p className="lede">
          <MentionText text={note.summary} linkable={linkable} />
        </p>
        <dl className="facts facts--note">
          <div>
            <dt>Phase</dt>
            <dd>
              <PhaseLink phase={note.phase} />
            </dd>
          </div>
          <div>
            <dt>Tags</dt>
            <dd>
              <TagList tags={note.tags} />
            </dd>
          </div>
          <div>
            <dt>Last change</dt>
            <dd>
              {changed ? (
                <>
                  <RevisionDate iso={changed.date} /> by {changed.author.name} · <Link href={historyUrl(note.id)}>History</Link>
                </>
              ) : (
                <Link href={historyUrl(note.id)}>History</Link>
              )}
            </dd>
          </div>
          <div>
            <dt>Other formats</dt>
            <dd className="formats">
              <a href={`${noteUrl(note.id)}.md`} type="text/markdown">Markdown</a> · <a href={`${noteUrl(note.id)}.txt`} type="text/plain">LLM text</a> ·{" "}
              <a href={`${noteUrl(note.id)}.json`} type="application/json">JSON</a>
            </dd>
          </div>
        </dl>
      </header>

      <StatusNotice note={note} view={view} />

      {SECTIONS.filter((s) => ALWAYS.has(s.key) || note.sections[s.key]).map((s) => (
        <NoteSection key={s.key} id={s.key} heading={s.heading} markdown={note.sections[s.key]} linkable={linkable} />
      ))}

      <nav className="links" aria-label="Connected notes">
        <LinkedNotes heading="Related notes" notes={related} empty="This note lists no related notes." />
        <LinkedNotes heading="Referenced by" notes={referencedBy} empty="No published note refers to this one yet." />
      </nav>

      <CommitLine commit={view.commit} />
    </article>
  );
}

/** The status and each boundary in words, as the hard limits they are for a reader relying on the note. */
function StatusNotice({ note, view }: { note: Note; view: PublishedView }) {
  const successor = note.superseded_by ? view.byId.get(note.superseded_by) : undefined;
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
        <p className="notice__plain">
          No structural-only or pinned-not-supported boundary applies; the claim boundary below still limits what it claims.
        </p>
      ) : null}
      {note.superseded_by ? (
        <p>
          Superseded by{" "}
          {successor ? <Link href={noteUrl(successor.id)}>{`${successor.id}: ${successor.title}`}</Link> : note.superseded_by}.
        </p>
      ) : null}
      {note.retraction_reason ? <p>Why it was retracted: {note.retraction_reason}</p> : null}
    </aside>
  );
}

function LinkedNotes({ heading, notes, empty }: { heading: string; notes: Note[]; empty: string }) {
  return (
    <section className="linked">
      <h2>{heading}</h2>
      {notes.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <ul>
          {notes.map((n) => (
            <li key={n.id}>
              <span className="id">{n.id}</span> <Link href={noteUrl(n.id)}>{n.title}</Link> <StatusBadge status={n.status} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
