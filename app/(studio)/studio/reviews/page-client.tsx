"use client";

import Link from "next/link";
import { SECTIONS } from "@/lib/notes/schema";
import type { Role } from "@/lib/rules/status-machine";
import type { Inbox, ReviewSummary } from "@/lib/review/inbox";
import { useReviewInbox } from "@/lib/queries/use-review";
import { ChangeTime } from "@/components/studio/change-time";
import { StatusBadge } from "@/components/status-badge";
import styles from "@/components/review/inbox.module.css";
// A quoted passage looks the same here as in its thread on the review page.
import review from "@/components/review/review.module.css";

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<string, string>;
const VERDICT = { approved: "approved", "changes-requested": "changes requested", awaiting: "awaiting a verdict" } as const;

/**
 * The review inbox: what waits for the signed-in person. Every entry is one link to the note's
 * review page, where the note, its changes, its threads and the verdict are all on one page; a
 * thread's entry lands on that thread.
 */
export default function ReviewsPageClient({ initial, role }: { initial: Inbox; role: Role }) {
  const { data: inbox = initial } = useReviewInbox(initial);
  const waiting = new Set(inbox.awaitingVerdict.map((n) => n.id));
  const others = inbox.notes.filter((n) => n.draft && !waiting.has(n.id));
  return (
    <div className={styles.inbox}>
      <header className={styles.head}>
        <h1>Review inbox</h1>
        <p className={styles.meta}>
          {role === "reviewer" ? "Drafts waiting for your verdict and threads waiting for your reply." : "Threads waiting for your reply."}{" "}
          <Link href="/studio">All notes in the studio</Link>
        </p>
      </header>

      {role === "reviewer" ? (
        <section aria-labelledby="awaiting-verdict">
          <h2 id="awaiting-verdict">Drafts awaiting your verdict ({inbox.awaitingVerdict.length})</h2>
          {inbox.awaitingVerdict.length === 0 ? (
            <p className={styles.empty}>Nothing waits for your verdict.</p>
          ) : (
            <ul className={styles.entries}>
              {inbox.awaitingVerdict.map((n) => (
                <NoteEntry key={n.id} note={n} />
              ))}
            </ul>
          )}
        </section>
      ) : null}

      <section aria-labelledby="awaiting-reply">
        <h2 id="awaiting-reply">Threads awaiting your reply ({inbox.awaitingReply.length})</h2>
        {inbox.awaitingReply.length === 0 ? (
          <p className={styles.empty}>No thread waits for your reply.</p>
        ) : (
          <ul className={styles.entries}>
            {inbox.awaitingReply.map((r) => (
              <li key={r.thread.id} className={styles.entry}>
                <Link className={styles.title} href={`/studio/notes/${r.id}/review#thread-${r.thread.id}`}>
                  <span className={styles.id}>{r.id}</span> {r.title ?? "(untitled)"}
                  <span className={styles.where}>
                    {" "}
                    · {HEADING[r.thread.section]}
                    {r.thread.outdated ? " (outdated)" : ""}
                  </span>
                </Link>
                {r.thread.quote ? <blockquote className={review.quote}>{r.thread.quote}</blockquote> : null}
                <p className={styles.last}>
                  <strong>{r.last.by}</strong>, <ChangeTime iso={r.last.at} />: {r.last.text.length > 160 ? `${r.last.text.slice(0, 159)}…` : r.last.text}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>

      {role === "reviewer" && others.length ? (
        <section aria-labelledby="other-drafts">
          <h2 id="other-drafts">Other drafts under review ({others.length})</h2>
          <p className={styles.meta}>Drafts whose current revision you have already judged, or that are not ready for a verdict yet.</p>
          <ul className={styles.entries}>
            {others.map((n) => (
              <NoteEntry key={n.id} note={n} />
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

function NoteEntry({ note: n }: { note: ReviewSummary }) {
  const threads = `${n.openThreads} open thread${n.openThreads === 1 ? "" : "s"}`;
  return (
    <li className={styles.entry}>
      <Link className={styles.title} href={`/studio/notes/${n.id}/review`}>
        <span className={styles.id}>{n.id}</span> {n.title ?? "(untitled)"}
      </Link>
      <p className={styles.facts}>
        {n.status ? <StatusBadge status={n.status} link={false} /> : null}
        <span>{threads}</span>
        {n.outdatedThreads ? <span>{n.outdatedThreads} outdated</span> : null}
        <span data-verdict={n.verdictState}>{VERDICT[n.verdictState]}</span>
      </p>
    </li>
  );
}
