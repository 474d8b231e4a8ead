import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CommitLine } from "@/components/commit-line";
import { DiffView } from "@/components/diff-view";
import { RevisionDate } from "@/components/revision-date";
import { StatusBadge } from "@/components/status-badge";
import { diffNotes } from "@/lib/diff/sections";
import { phaseTitlesAt } from "@/lib/content/phases";
import { publishedHistory } from "@/lib/public/history";
import { approvalWords } from "@/lib/public/revision-words";
import { pageMetadata } from "@/lib/public/meta";
import { loadPublishedNote } from "@/lib/public/published-note";
import { historyUrl, noteUrl } from "@/lib/web/urls";

/**
 * Every published revision of one note, newest first: what it did in words, who made it and who
 * approved it, then what changed since the one before, field by field. The commit itself (id,
 * message, trailers) is there for whoever wants git's view, folded under "Commit details".
 */

type Props = { params: Promise<{ id: string }> };

const load = loadPublishedNote;

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Note not found", robots: { index: false } };
  const { note } = found;
  return pageMetadata({
    title: `History of ${note.id}`,
    description: `Every published revision of ${note.id}, with what changed in each, field by field.`,
    path: historyUrl(note.id),
  });
}

export default async function HistoryPage({ params }: Props) {
  const found = await load(params);
  if (!found) notFound();
  const { view, note } = found;
  // Revisions up to the commit this page is read from (a newer one shows on the next request).
  const [revisions, titles] = await Promise.all([publishedHistory(view, note.id), phaseTitlesAt(view.commit)]);

  return (
    <article className="history" aria-labelledby="history-title">
      <header className="page-head">
        <h1 id="history-title">History of {note.id}</h1>
        <p className="kicker">
          <a href={noteUrl(note.id)}>
            {note.id}: {note.title}
          </a>
        </p>
        {/* Which note this is, in its own words, for a reader who arrives here first. */}
        <p className="history__summary">{note.summary}</p>
        <p className="lede">
          {revisions.length === 1 ? "One published revision." : `${revisions.length} published revisions, newest first.`} Each shows what changed since the
          revision before it, field by field and section by section. Unpublished drafts are not part of this history.
        </p>
      </header>

      <ol className="revisions">
        {revisions.map((rev, i) => {
          const { previous } = rev;
          const short = rev.commit.slice(0, 12);
          return (
            <li key={rev.commit} id={`r-${short}`} className="revision">
              <header className="revision__head">
                {/* What the revision did, from the note before and after it; git's own words are in the details below. */}
                <h2 className="revision__message">{rev.words}</h2>
                <p className="revision__meta">
                  <RevisionDate iso={rev.date} withTime /> · by <span className="author">{rev.by}</span>
                  {rev.approvedBy.length ? <span className="revision__approval"> · {approvalWords(rev.approvedBy)}</span> : null}
                  {i === 0 ? <span className="current"> · current</span> : null}
                  {previous && previous.note.status !== rev.note.status ? (
                    <>
                      {" "}
                      · status now <StatusBadge status={rev.note.status} />
                    </>
                  ) : null}
                </p>
              </header>
              {previous ? (
                <>
                  <h3 className="visually-hidden">Changes since the previous revision</h3>
                  <DiffView diffs={diffNotes(previous.note, rev.note, titles)} />
                </>
              ) : (
                <p className="empty">First published revision: the note as it first appeared on the archive.</p>
              )}
              <details className="revision__commit">
                <summary>Commit details</summary>
                <p>
                  Commit <code>{rev.commit}</code>
                </p>
                <pre>{rev.message || "(no message)"}</pre>
              </details>
            </li>
          );
        })}
      </ol>
      <CommitLine commit={view.commit} />
    </article>
  );
}
