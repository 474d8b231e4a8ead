"use client";

import Link from "next/link";
import { STATUS_LABEL } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { NoteListEntry } from "@/lib/studio/list-notes";
import type { MainState } from "@/lib/studio/main-state";
import { useNotes } from "@/lib/queries/use-notes";
import { StatusBadge } from "@/components/status-badge";
import { ButtonLink } from "@/components/ui/button";
import { ChangeTime } from "@/components/studio/change-time";
import styles from "@/components/studio/studio.module.css";
import { ReviewBadge } from "@/components/review/review-badge";

/**
 * The studio's home: drafts being worked on, then the published notes. "New note" opens an empty
 * form (no id is taken until it is saved). A reviewer's links lead where a reviewer works: a draft's
 * review page, a published note's public page, never an editor full of disabled buttons.
 */
export default function StudioPageClient({ initial, main, actor }: { initial: NoteListEntry[]; main: MainState; actor: Actor }) {
  const { data: notes = initial, isFetching } = useNotes(initial);
  const drafts = notes.filter((n) => n.draft);
  const published = notes.filter((n) => !n.draft);
  const reviewer = actor.role !== "author";

  return (
    <div className={styles.list}>
      <header className={styles.listHeader}>
        <h1>Studio</h1>
        {reviewer ? (
          <p className={styles.hint}>
            You review unpublished versions; authors write and publish them. <Link href="/studio/reviews">Your review inbox</Link>
          </p>
        ) : (
          <ButtonLink variant="primary" href="/studio/notes/new">
            New note
          </ButtonLink>
        )}
        {isFetching ? (
          <span className={styles.hint} aria-live="polite">
            Refreshing…
          </span>
        ) : null}
      </header>
      <MainBanner main={main} />
      <NoteTable caption={`Unpublished (${drafts.length})`} notes={drafts} reviewer={reviewer} empty="Nothing unpublished: every note is published as it is." />
      <NoteTable caption={`Published notes (${published.length})`} notes={published} reviewer={reviewer} empty="Nothing is published yet." />
    </div>
  );
}

function NoteTable({ caption, notes, empty, reviewer }: { caption: string; notes: NoteListEntry[]; empty: string; reviewer: boolean }) {
  const href = (n: NoteListEntry) => (!reviewer ? `/studio/notes/${n.id}` : n.draft ? `/studio/notes/${n.id}/review` : `/notes/${n.id}`);
  return (
    <table className={styles.table}>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Note</th>
          <th scope="col">Status</th>
          <th scope="col">Last change</th>
        </tr>
      </thead>
      <tbody>
        {notes.length === 0 ? (
          <tr>
            <td colSpan={3}>{empty}</td>
          </tr>
        ) : null}
        {notes.map((n) => (
          <tr key={n.id}>
            <td>
              {/* No prefetch: each would be a server render of an editor page, about 20 per list. */}
              <Link href={href(n)} prefetch={false}>
                <span className={styles.noteId}>{n.id}</span> {n.title}
              </Link>
            </td>
            <td>
              {n.status ? <StatusBadge status={n.status} link={false} /> : "invalid file"}
              {n.draft && n.publishedStatus ? <span className={styles.hint}> (published as {STATUS_LABEL[n.publishedStatus]})</span> : null}
              {n.draft ? <ReviewBadge id={n.id} /> : null}
            </td>
            <td>
              {n.lastChange ? (
                <>
                  <ChangeTime iso={n.lastChange.date} /> <span className={styles.hint}>by {n.lastChange.by}</span>
                </>
              ) : (
                "not saved yet"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** main itself: a commit the rules refuse (the public is served the last accepted one), a rewind of main. */
function MainBanner({ main }: { main: MainState }) {
  const { refused, rewind } = main;
  if (!refused && !rewind) return null;
  const short = (oid: string) => oid.slice(0, 12);
  return (
    <div className={styles.banner} role="alert">
      {refused ? (
        <p>
          Main&apos;s commit <code>{short(refused.commit)}</code> is refused by the rules and is not published: {refused.file}, line {refused.line}:{" "}
          {refused.rule}: {refused.message}. Readers see <code>{short(refused.served)}</code>, the last accepted commit, until the change is undone on main.
        </p>
      ) : null}
      {rewind ? (
        <p>
          Main was moved back from <code>{short(rewind.from)}</code> to <code>{short(rewind.to)}</code> (a force-push) on <ChangeTime iso={rewind.at} />.{" "}
          {rewind.followed
            ? "This site follows such a move (ALLOW_MAIN_REWIND=1): notes published after it are no longer on main."
            : "This instance refused to follow it: it keeps serving the main it had, and publishing waits until the git host's main is restored."}
        </p>
      ) : null}
    </div>
  );
}
