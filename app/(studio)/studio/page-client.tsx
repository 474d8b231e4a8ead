"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { STATUS_LABEL } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { NoteListEntry } from "@/lib/studio/list-notes";
import { useNotes } from "@/lib/queries/use-notes";
import { useCreateNote } from "@/lib/queries/use-note-mutations";
import { shortDate } from "@/components/studio/short-date";
import styles from "@/components/studio/studio.module.css";
import { ReviewBadge } from "@/components/review/review-badge";

/** The studio's home: drafts being worked on, then the published notes; "New note" for authors. */
export default function StudioPageClient({ initial, actor }: { initial: NoteListEntry[]; actor: Actor }) {
  const router = useRouter();
  const { data: notes = initial, isFetching } = useNotes(initial);
  const create = useCreateNote();
  const drafts = notes.filter((n) => n.draft);
  const published = notes.filter((n) => !n.draft);

  return (
    <div className={styles.list}>
      <header className={styles.listHeader}>
        <h1>Studio</h1>
        {actor.role === "author" ? (
          <button
            type="button"
            className={styles.primary}
            disabled={create.isPending}
            onClick={() => create.mutate(undefined, { onSuccess: (view) => router.push(`/studio/notes/${view.id}`) })}
          >
            {create.isPending ? "Creating…" : "New note"}
          </button>
        ) : (
          <p className={styles.hint}>
            You review drafts; authors write and publish them. <Link href="/studio/reviews">Your review inbox</Link>
          </p>
        )}
        {create.error ? <p role="alert" className={styles.error}>{create.error.message}</p> : null}
        {isFetching ? <span className={styles.hint} aria-live="polite">Refreshing…</span> : null}
      </header>
      <NoteTable caption={`Drafts (${drafts.length})`} notes={drafts} empty="No drafts: every note is published as it is." />
      <NoteTable caption={`Published notes (${published.length})`} notes={published} empty="Nothing is published yet." />
    </div>
  );
}

function NoteTable({ caption, notes, empty }: { caption: string; notes: NoteListEntry[]; empty: string }) {
  return (
    <table className={styles.table}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Note</th>
          <th scope="col">Status</th>
          <th scope="col">Last change</th>
          <th scope="col">By</th>
        </tr>
      </thead>
      <tbody>
        {notes.length === 0 ? (
          <tr>
            <td colSpan={4}>{empty}</td>
          </tr>
        ) : null}
        {notes.map((n) => (
          <tr key={n.id}>
            <td>
              <Link href={`/studio/notes/${n.id}`}>
                <span className={styles.noteId}>{n.id}</span> {n.title}
              </Link>
            </td>
            <td>
              {n.status ? STATUS_LABEL[n.status] : "invalid file"}
              {n.draft && n.publishedStatus ? <span className={styles.hint}> (published as {STATUS_LABEL[n.publishedStatus]})</span> : null}
              {n.draft ? <ReviewBadge id={n.id} /> : null}
            </td>
            <td>{n.lastChange ? <time dateTime={n.lastChange.date}>{shortDate(n.lastChange.date)}</time> : "not saved yet"}</td>
            <td>{n.lastChange?.author.name ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
