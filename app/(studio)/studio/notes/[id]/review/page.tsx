import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/rules/api-errors";
import { currentActor } from "@/lib/auth/actor";
import { SECTIONS } from "@/lib/notes/schema";
import { readNoteWithReview } from "@/lib/studio/read-note";
import { noteIdParam } from "@/lib/studio/refs";
import { compareForReview, versionDate } from "@/lib/review/review-page-data";
import { NoteHead } from "@/components/note-head";
import { NoteSection } from "@/components/note-section";
import { StatusNotice } from "@/components/status-notice";
import { buttonClass } from "@/components/ui/button";
import { CompareForm } from "@/components/review/compare-form";
import { QuoteMarks } from "@/components/review/quote-marks";
import { SectionChanges } from "@/components/review/section-changes";
import { SectionThreads } from "@/components/review/section-threads";
import { VerdictPanel } from "@/components/review/verdict-panel";
import styles from "@/components/review/review.module.css";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ against?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Reviewing ${(await params).id}` };
}

// The sections the public page always shows; "Notes" only when written (here also when it changed or has threads).
const ALWAYS = new Set(["decision", "invariant", "rejectedShortcut", "evidence", "claimBoundary"]);

/**
 * /studio/notes/<id>/review: one page from reading to verdict. The note as the public will see it
 * (the public page's own head, "how far to rely on this note" panel and section rendering), each
 * section followed by what changed against the published version (or an earlier revision) and
 * with its review threads beside it (under it on a narrow screen); the verdict at the end, bound
 * to the revision this page shows. A 404 for anyone not signed in.
 */
export default async function ReviewPage({ params, searchParams }: Props) {
  const actor = await currentActor();
  if (!actor) notFound();
  let view, review;
  try {
    const id = noteIdParam((await params).id);
    ({ view, review } = await readNoteWithReview(actor, id));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  }
  const who = { id: actor.id, role: actor.role };
  const note = view.note;
  if (!note) {
    return (
      <p>
        {view.id} has no saved, valid revision to review yet. <Link href={`/studio/notes/${view.id}`}>Open it in the editor</Link>
      </p>
    );
  }
  const against = (await searchParams).against;
  const lastReviewed = review.verdicts.filter((v) => v.reviewer.id === actor.id && v.revision !== view.noteRevision).at(-1)?.revision;
  const comparison = await compareForReview(view, note, { against: typeof against === "string" ? against : undefined, lastReviewed });
  const byField = new Map(comparison.diffs.map((d) => [d.field, d]));
  const sectionKeys = new Set<string>(SECTIONS.map((s) => s.key));
  const otherChanges = comparison.diffs.filter((d) => !sectionKeys.has(d.field));
  const linkable = new Set(view.publishedIds);
  const threaded = new Set(review.threads.map((t) => t.section));
  const shown = SECTIONS.filter((s) => ALWAYS.has(s.key) || note.sections[s.key] || byField.has(s.key) || threaded.has(s.key));
  const canJudge = actor.role === "reviewer" && !view.revisionAuthors.includes(actor.id);
  const version = view.lastChange ? `the version of ${versionDate(view.lastChange.date)} by ${view.lastChange.author.name}` : "this version";

  return (
    <div className={styles.page}>
      <div className={styles.topbar}>
        <nav aria-label="Review" className={styles.crumbs}>
          <Link href="/studio/reviews">← Review inbox</Link>
          <Link href={`/studio/notes/${view.id}`}>Open {view.id} in the editor</Link>
        </nav>
        {/* A plain fragment link, not next/link: the browser's own navigation to #verdict moves the
            keyboard there too, so the next Tab is in the verdict, not back at the top of the page. */}
        <a href="#verdict" className={buttonClass(canJudge ? "primary" : "secondary", "normal", styles.finish)}>
          {canJudge ? "Finish review" : "Verdicts"}
        </a>
      </div>

      <article className={styles.note} aria-labelledby="note-title">
        <QuoteMarks noteId={view.id} initial={review} />
        <div className={styles.row}>
          <div className={styles.reading}>
            <NoteHead note={note} linkable={linkable} titles={view.phaseTitles}>
              <div>
                <dt>Under review</dt>
                <dd>
                  {version} <code className={styles.rev}>{view.noteRevision.slice(0, 7)}</code>
                  {view.published ? "" : " · never published"}
                </dd>
              </div>
            </NoteHead>
            <StatusNotice note={note} />
          </div>
          <aside className={styles.side} aria-label="What changed">
            <h2 className={styles.sideHeading}>What changed</h2>
            {comparison.base ? (
              <>
                <CompareForm choices={comparison.choices} base={comparison.base} />
                {comparison.diffs.length === 0 ? (
                  <p className={styles.meta}>Nothing changed since {comparison.baseLabel}.</p>
                ) : (
                  <ul className={styles.changedList} aria-label={`Changed since ${comparison.baseLabel}`}>
                    {comparison.diffs.map((d) => (
                      <li key={d.field}>
                        <a href={sectionKeys.has(d.field) ? `#h-${d.field}` : "#other-changes"}>{d.label}</a> <span className={styles.meta}>{d.change}</span>
                      </li>
                    ))}
                  </ul>
                )}
              </>
            ) : (
              <p className={styles.meta}>This is the note&apos;s first revision: there is no earlier version to compare it with, so read it whole.</p>
            )}
          </aside>
        </div>

        {otherChanges.length ? (
          <div className={styles.row} id="other-changes">
            <div className={styles.reading}>
              <SectionChanges diffs={otherChanges} heading="Title, summary and other fields" baseLabel={comparison.baseLabel} />
            </div>
          </div>
        ) : null}

        {shown.map((s) => {
          const diff = byField.get(s.key);
          return (
            <div key={s.key} data-section={s.key} className={styles.row}>
              <div className={styles.reading}>
                <NoteSection id={s.key} heading={s.heading} markdown={note.sections[s.key]} linkable={linkable} />
                {diff ? (
                  <SectionChanges diffs={[diff]} heading={s.heading} baseLabel={comparison.baseLabel} />
                ) : comparison.base ? (
                  <p className={styles.unchanged}>Unchanged since {comparison.baseLabel}.</p>
                ) : null}
              </div>
              <div className={styles.side}>
                <SectionThreads
                  noteId={view.id}
                  section={s.key}
                  heading={s.heading}
                  revision={view.noteRevision}
                  actor={who}
                  initial={review}
                  source={note.sections[s.key]}
                />
              </div>
            </div>
          );
        })}
      </article>

      <div className={styles.row}>
        <div className={styles.reading}>
          <VerdictPanel noteId={view.id} actor={who} initial={review} revision={view.noteRevision} version={version} />
        </div>
      </div>
    </div>
  );
}
