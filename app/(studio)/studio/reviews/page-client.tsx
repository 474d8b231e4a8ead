"use client";

import Link from "next/link";
import { SECTIONS } from "@/lib/notes/schema";
import type { Role } from "@/lib/rules/status-machine";
import type { Inbox, InboxEntry } from "@/lib/review/inbox";
import { useReviewInbox } from "@/lib/queries/use-review";
import { ChangeTime } from "@/components/studio/change-time";
import { StatusBadge } from "@/components/status-badge";
import styles from "@/components/review/inbox.module.css";
// A quoted passage looks the same here as in its thread on the review page.
import review from "@/components/review/review.module.css";

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<string, string>;
const VERDICT = { approved: "approved", "changes-requested": "changes requested", awaiting: "awaiting a verdict" } as const;

/**
 * The review inbox: what waits for the signed-in person. A reviewer sees three lists (asked of
 * them by name; waiting for any reviewer; changed since their last verdict), each entry saying
 * what changed since they last looked; everyone sees the threads waiting for their reply. Every
 * entry is one link to the note's review page (a thread's entry lands on that thread).
 */
export default function ReviewsPageClient({ initial, role }: { initial: Inbox; role: Role }) {
  const { data: inbox = initial } = useReviewInbox(initial);
  return (
    <div className={styles.inbox}>
      <header className={styles.head}>
        <h1>Review inbox</h1>
        <p className={styles.meta}>
          {role === "reviewer"
            ? "Reviews asked of you, notes waiting for any reviewer, and threads waiting for your reply."
            : "Threads waiting for your reply."}{" "}
          <Link href="/studio">All notes in the studio</Link>
        </p>
      </header>

      {role === "reviewer" ? (
        <>
          <EntryList id="requested" title="Requested from you" entries={inbox.requested} empty="Nobody has asked you for a review." />
          <EntryList
            id="waiting"
            title="Waiting for any reviewer"
            entries={inbox.waiting}
            empty="No unpublished version is waiting to be published and no hypothesis is waiting to be verified."
          />
          <EntryList id="changed" title="Changed since your last review" entries={inbox.changedSinceReview} empty="Nothing you reviewed has a new revision." />
        </>
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
    </div>
  );
}

function EntryList({ id, title, entries, empty }: { id: string; title: string; entries: InboxEntry[]; empty: string }) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>
        {title} ({entries.length})
      </h2>
      {entries.length === 0 ? (
        <p className={styles.empty}>{empty}</p>
      ) : (
        <ul className={styles.entries}>
          {entries.map((n) => (
            <NoteEntry key={n.id} note={n} />
          ))}
        </ul>
      )}
    </section>
  );
}

const PURPOSE = { publish: "to review it for publishing", verify: "to verify it", changes: "to look at the changes" } as const;

function NoteEntry({ note: n }: { note: InboxEntry }) {
  const threads = `${n.openThreads} open thread${n.openThreads === 1 ? "" : "s"}`;
  return (
    <li className={styles.entry}>
      <Link className={styles.title} href={`/studio/notes/${n.id}/review`}>
        <span className={styles.id}>{n.id}</span> {n.title ?? "(untitled)"}
      </Link>
      <p className={styles.facts}>
        {n.status ? <StatusBadge status={n.status} link={false} /> : null}
        <span>{n.draft ? "unpublished revision" : "published"}</span>
        <span>{threads}</span>
        {n.outdatedThreads ? <span>{n.outdatedThreads} outdated</span> : null}
        <span data-verdict={n.verdictState}>{VERDICT[n.verdictState]}</span>
      </p>
      {n.request ? (
        <p className={styles.last}>
          <strong>{n.request.by}</strong> asked {n.request.named ? "you" : "any reviewer"} {PURPOSE[n.request.purpose]}, <ChangeTime iso={n.request.at} />
          {n.request.text ? `: ${n.request.text.length > 160 ? `${n.request.text.slice(0, 159)}…` : n.request.text}` : "."}
        </p>
      ) : null}
      <p className={styles.last} data-changed>
        {whatChanged(n)}
      </p>
    </li>
  );
}

/** What changed since the reviewer last looked, in one sentence. */
function whatChanged(n: InboxEntry): string {
  if (!n.since) return "A new note: not published yet, every field is new to you.";
  const fields = n.changed?.length ? `${n.changed.join(", ")} changed` : "no field changed";
  if (n.since.kind === "published") return `Since the published version: ${fields}.`;
  const verdict = n.since.verdict === "approve" ? "your approval" : "your request for changes";
  return `Since ${verdict} of revision ${n.since.revision.slice(0, 7)}: ${fields}.`;
}
