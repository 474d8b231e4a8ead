import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { CommitLine } from "@/components/commit-line";
import { NoteHead } from "@/components/note-head";
import { NoteSection } from "@/components/note-section";
import { RevisionDate } from "@/components/revision-date";
import { StatusBadge } from "@/components/status-badge";
import { StatusNotice } from "@/components/status-notice";
import { SECTIONS, type Note } from "@/lib/notes/schema";
import { changedBy } from "@/lib/notes/byline";
import { lastChange } from "@/lib/content/last-change";
import { claimChange } from "@/lib/public/claim-change";
import { approvalWords } from "@/lib/public/revision-words";
import { neighbors } from "@/lib/public/record-query";
import { connectedNotes } from "@/lib/public/connected-notes";
import { APP_IDENTITY } from "@/lib/store/api";
import { pageMetadata } from "@/lib/public/meta";
import { loadPublishedNote } from "@/lib/public/published-note";
import { historyUrl, noteUrl, searchUrl, SECTION_ANCHORS, segment } from "@/lib/web/urls";
import { getPublishedView } from "@/lib/content/published";
import { phaseTitlesAt } from "@/lib/content/phases";
import { publishedNoteAt } from "@/lib/content/pinned-note";

/**
 * One published note: every section from Markdown, what its status and boundaries mean, its links;
 * "On this page" (beside the note on wide screens, sticky) and the previous and next records in the
 * editorial order of "All decision records", with the way back to that list.
 */

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ rev?: string | string[] }> };

// The five sections every decision record has; "Notes" is shown only when written.
const ALWAYS = new Set(["decision", "invariant", "rejectedShortcut", "evidence", "claimBoundary"]);

/**
 * The note as published now, or with `?rev=<commit>` as published at that commit of main (a
 * citation that keeps its text; lib/content/pinned-note.ts), null where it was not published.
 */
async function load(params: Props["params"], searchParams: Props["searchParams"]) {
  const found = await loadPublishedNote(params);
  const { rev } = await searchParams;
  if (rev === undefined) return found ? { ...found, pinned: null } : null;
  const pinned = typeof rev === "string" ? await publishedNoteAt(segment((await params).id), rev) : null;
  if (!pinned?.ok) return null;
  // A note retracted or deleted since still has its pinned revisions: the rest of the page is main's.
  return { view: found?.view ?? (await getPublishedView()), note: pinned.note, pinned: pinned.commit };
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const found = await load(params, searchParams);
  if (!found) return { title: "Note not found", robots: { index: false } };
  const { note, pinned } = found;
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
    // A pinned revision is a citation, not a page of its own for search engines.
    ...(pinned ? { robots: { index: false } } : {}),
  };
}

export default async function NotePage({ params, searchParams }: Props) {
  const found = await load(params, searchParams);
  if (!found) notFound();
  const { view, note, pinned } = found;
  const [[changed, claim], titles] = await Promise.all([
    pinned ? [null, null] : Promise.all([lastChange(view, note.id), claimChange(view, note)]),
    // A pinned revision's phase is shown by main's title for it, as its link leads to main's phase page.
    phaseTitlesAt(view.commit),
  ]);
  const linkable = new Set(view.byId.keys());
  const { related, linkingHere, referencedBy, moreReferences, mutual } = connectedNotes(view, note);

  const shown = SECTIONS.filter((s) => ALWAYS.has(s.key) || note.sections[s.key]);
  const { previous, next } = neighbors(view.notes, note.id);

  return (
    <article className="note note-layout" aria-labelledby="note-title">
      <NoteHead note={note} linkable={linkable} titles={titles}>
        {pinned ? (
          <div className="pinned-notice">
            {/* ?rev=<commit>: this revision, kept as it was for citations. */}
            <dt>Pinned revision</dt>
            <dd>
              As published at commit <code>{pinned.slice(0, 12)}</code> · <a href={noteUrl(note.id)}>Read the current version</a>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Last change</dt>
          <dd>
            {changed ? (
              <>
                <RevisionDate iso={changed.date} /> by <span className="author">{changedBy(changed.author, APP_IDENTITY, view.site.author)}</span> ·{" "}
                <a href={historyUrl(note.id)}>History</a>
              </>
            ) : (
              <a href={historyUrl(note.id)}>History</a>
            )}
          </dd>
        </div>
        {claim ? (
          <div>
            {/* A verified note: when what it claims last changed, and who approved that revision. */}
            <dt>Verification</dt>
            <dd className="claim-change">
              <a href={`${historyUrl(note.id)}#r-${claim.commit.slice(0, 12)}`}>
                {claim.words} <RevisionDate iso={claim.date} short />
              </a>{" "}
              · {approvalWords(claim.approvedBy)}
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Other formats</dt>
          <dd className="formats">
            <a href={`${noteUrl(note.id)}.md`} type="text/markdown">
              Markdown
            </a>{" "}
            ·{" "}
            <a href={`${noteUrl(note.id)}.txt`} type="text/plain">
              LLM text
            </a>{" "}
            ·{" "}
            <a href={`${noteUrl(note.id)}.json`} type="application/json">
              JSON
            </a>
          </dd>
        </div>
      </NoteHead>

      <nav className="toc" aria-labelledby="toc-heading">
        <h2 id="toc-heading" className="toc__heading">
          On this page
        </h2>
        <ol>
          <li>
            <a href="#notice-heading">How far to rely on it</a>
          </li>
          {shown.map((s) => (
            <li key={s.key}>
              <a href={`#${SECTION_ANCHORS[s.key]}`}>{s.heading}</a>
            </li>
          ))}
          <li>
            <a href="#connected">Related notes</a>
          </li>
        </ol>
        <p className="toc__back">
          <a href="/#records">← All decision records</a>
        </p>
      </nav>

      <StatusNotice note={note} successor={note.superseded_by ? view.byId.get(note.superseded_by) : undefined} />

      {shown.map((s) => (
        <NoteSection key={s.key} id={s.key} heading={s.heading} markdown={note.sections[s.key]} linkable={linkable} />
      ))}

      <nav className="links" id="connected" aria-label="Connected notes">
        <LinkedNotes heading="Related notes" notes={related} linkingHere={linkingHere} empty="This note lists no related notes." />
        <LinkedNotes
          heading="Referenced by"
          notes={referencedBy}
          empty={mutual ? "No note besides the related ones above refers to this one." : "No published note refers to this one yet."}
        />
        {moreReferences > 0 ? (
          <p className="linked__more">
            And {moreReferences.toLocaleString("en")} more notes refer to this one: <a href={searchUrl(note.id)}>search for {note.id}</a> finds them, best
            matches first; <a href={`${noteUrl(note.id)}.json`}>its JSON</a> lists every one.
          </p>
        ) : null}
      </nav>

      <nav className="neighbors" aria-label="Previous and next decision records">
        {previous ? (
          <a className="neighbors__link neighbors__link--previous" rel="prev" href={noteUrl(previous.id)}>
            <span className="neighbors__dir">← Previous record</span>
            <span className="neighbors__title">
              <span className="id">{previous.id}</span> {previous.title}
            </span>
          </a>
        ) : (
          <span className="neighbors__link neighbors__link--none">This is the first record.</span>
        )}
        <a className="neighbors__list" href="/#records">
          All decision records
        </a>
        {next ? (
          <a className="neighbors__link neighbors__link--next" rel="next" href={noteUrl(next.id)}>
            <span className="neighbors__dir">Next record →</span>
            <span className="neighbors__title">
              <span className="id">{next.id}</span> {next.title}
            </span>
          </a>
        ) : (
          <span className="neighbors__link neighbors__link--none">This is the last record.</span>
        )}
      </nav>

      <CommitLine commit={pinned ?? view.commit} />
    </article>
  );
}

function LinkedNotes({ heading, notes, empty, linkingHere }: { heading: string; notes: Note[]; empty: string; linkingHere?: ReadonlySet<string> }) {
  return (
    <section className="linked">
      <h2>{heading}</h2>
      {notes.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <ul>
          {notes.map((n) => (
            <li key={n.id}>
              <span className="id">{n.id}</span> <a href={noteUrl(n.id)}>{n.title}</a> <StatusBadge status={n.status} />
              {linkingHere?.has(n.id) ? <span className="linked__back"> · refers to this note too</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
