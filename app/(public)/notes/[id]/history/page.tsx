import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CommitLine } from "@/components/commit-line";
import { DiffView } from "@/components/diff-view";
import { RevisionDate } from "@/components/revision-date";
import { StatusBadge } from "@/components/status-badge";
import { getPublishedHistory } from "@/lib/content/published";
import { diffNotes } from "@/lib/diff/sections";
import { changedBy } from "@/lib/public/byline";
import { pageMetadata } from "@/lib/public/meta";
import { APP_IDENTITY } from "@/lib/store/api";
import { loadPublishedNote } from "@/lib/public/published-note";
import { historyUrl, noteUrl } from "@/lib/render/urls";

/** Every published revision of one note, newest first, each with what changed since the one before. */

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
  const revisions = await getPublishedHistory(note.id);

  return (
    <article className="history" aria-labelledby="history-title">
      <header className="page-head">
        <h1 id="history-title">History of {note.id}</h1>
        <p className="kicker">
          <Link href={noteUrl(note.id)}>
            {note.id}: {note.title}
          </Link>
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
          const previous = revisions[i + 1];
          const short = rev.commit.slice(0, 12);
          return (
            <li key={rev.commit} id={`r-${short}`} className="revision">
              <header className="revision__head">
                <h2 className="revision__message">{firstLine(rev.message) || "(no message)"}</h2>
                <p className="revision__meta">
                  <RevisionDate iso={rev.date} withTime /> · <span className="author">{changedBy(rev.author, APP_IDENTITY, view.site.author)}</span> ·{" "}
                  <code title={rev.commit}>{short}</code>
                  {i === 0 ? <span className="current"> · current</span> : null}
                  {previous && previous.note.status !== rev.note.status ? (
                    <>
                      {" "}
                      · status now <StatusBadge status={rev.note.status} />
                    </>
                  ) : null}
                </p>
                {restOf(rev.message) ? <p className="revision__body">{restOf(rev.message)}</p> : null}
              </header>
              {previous ? (
                <>
                  <h3 className="visually-hidden">Changes since {previous.commit.slice(0, 12)}</h3>
                  <DiffView diffs={diffNotes(previous.note, rev.note)} />
                </>
              ) : (
                <p className="empty">First published revision: the note as it first appeared on the archive.</p>
              )}
            </li>
          );
        })}
      </ol>
      <CommitLine commit={view.commit} />
    </article>
  );
}

function firstLine(message: string) {
  return message.split("\n")[0]?.trim() ?? "";
}

function restOf(message: string) {
  return message.split("\n").slice(1).join("\n").trim();
}
