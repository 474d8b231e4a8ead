import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/api/errors";
import { currentActor } from "@/lib/auth/actor";
import { SECTIONS } from "@/lib/notes/schema";
import { readNote } from "@/lib/studio/read-note";
import { noteIdParam } from "@/lib/studio/refs";
import { readReview } from "@/lib/review/read-review";
import { compareForReview } from "@/lib/review/review-page-data";
import { BoundaryBadge } from "@/components/boundary-badge";
import { DiffView } from "@/components/diff-view";
import { NoteSection } from "@/components/note-section";
import { StatusBadge } from "@/components/status-badge";
import { SectionThreads } from "@/components/review/section-threads";
import { VerdictPanel } from "@/components/review/verdict-panel";
import styles from "@/components/review/review.module.css";

type Props = { params: Promise<{ id: string }>; searchParams: Promise<{ against?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Reviewing ${(await params).id}` };
}

/**
 * /studio/notes/<id>/review: the draft as the public would see it, section by section, each with
 * what changed against the published version (or an earlier revision) and its review threads
 * beside it; verdicts on the current revision. A 404 for anyone not signed in.
 */
export default async function ReviewPage({ params, searchParams }: Props) {
  const actor = await currentActor();
  if (!actor) notFound();
  let view, review;
  try {
    const id = noteIdParam((await params).id);
    [view, review] = await Promise.all([readNote(actor, id), readReview(id)]);
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
  const comparison = await compareForReview(view, note, typeof against === "string" ? against : undefined);
  const byField = new Map(comparison.diffs.map((d) => [d.field, d]));
  const sectionKeys = new Set<string>(SECTIONS.map((s) => s.key));
  const otherChanges = comparison.diffs.filter((d) => !sectionKeys.has(d.field));
  const linkable = new Set(view.publishedIds);

  return (
    <>
      <p>
        <Link href={`/studio/notes/${view.id}`}>← Back to the editor</Link> · <Link href="/studio/reviews">Review inbox</Link>
      </p>
      <article className="note" aria-labelledby="note-title">
        <header className="page-head">
          <p className="note__ids">
            <span className="id">{note.id}</span>
            <StatusBadge status={note.status} />
            {note.boundaries.map((b) => (
              <BoundaryBadge key={b} boundary={b} />
            ))}
          </p>
          <h1 id="note-title">{note.title}</h1>
          <p className="lede">{note.summary}</p>
          <p className={styles.meta}>
            Reviewing revision <code>{view.noteRevision.slice(0, 7)}</code>
            {view.lastChange ? ` by ${view.lastChange.author.name}` : ""}.
          </p>
        </header>
        <VerdictPanel noteId={view.id} actor={who} initial={review} />

        <form method="get" className={styles.row} aria-label="Compare with">
          <label htmlFor="against">Changes against</label>
          <select id="against" name="against" defaultValue={comparison.base}>
            {comparison.choices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
          <button type="submit">Compare</button>
        </form>
        {otherChanges.length ? (
          <details>
            <summary>Other fields changed against {comparison.baseLabel} ({otherChanges.map((d) => d.label).join(", ")})</summary>
            <DiffView diffs={otherChanges} />
          </details>
        ) : null}

        {SECTIONS.map((s) => {
          const diff = byField.get(s.key);
          return (
            <div key={s.key} data-section={s.key} className={styles.reviewLayout}>
              <div>
                <NoteSection id={s.key} heading={s.heading} markdown={note.sections[s.key]} linkable={linkable} />
                {diff ? (
                  <details>
                    <summary>
                      {s.heading} {diff.change} against {comparison.baseLabel}
                    </summary>
                    <DiffView diffs={[diff]} />
                  </details>
                ) : (
                  <p className={styles.meta}>Unchanged against {comparison.baseLabel}.</p>
                )}
              </div>
              <SectionThreads noteId={view.id} section={s.key} heading={s.heading} revision={view.noteRevision} actor={who} initial={review} />
            </div>
          );
        })}
      </article>
    </>
  );
}
