"use client";

import Link from "next/link";
import { SECTIONS, STATUS_LABEL } from "@/lib/notes/schema";
import type { Role } from "@/lib/rules/status-machine";
import type { Inbox } from "@/lib/review/inbox";
import { useReviewInbox } from "@/lib/queries/use-review";
import { shortDate } from "@/components/studio/short-date";
import styles from "@/components/studio/studio.module.css";

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<string, string>;
const VERDICT = { approved: "approved", "changes-requested": "changes requested", awaiting: "awaiting a verdict" } as const;

export default function ReviewsPageClient({ initial, role }: { initial: Inbox; role: Role }) {
  const { data: inbox = initial } = useReviewInbox(initial);
  return (
    <div className={styles.list}>
      <header className={styles.listHeader}>
        <h1>Review inbox</h1>
        <p className={styles.hint}>
          <Link href="/studio">All notes in the studio</Link>
        </p>
      </header>
      {role === "reviewer" ? (
        <table className={styles.table}>
          <caption>Drafts awaiting your verdict ({inbox.awaitingVerdict.length})</caption>
          <thead>
            <tr>
              <th scope="col">Note</th>
              <th scope="col">Status</th>
              <th scope="col">Open threads</th>
              <th scope="col">Verdict on the current revision</th>
            </tr>
          </thead>
          <tbody>
            {inbox.awaitingVerdict.length === 0 ? (
              <tr>
                <td colSpan={4}>Nothing waits for your verdict.</td>
              </tr>
            ) : null}
            {inbox.awaitingVerdict.map((n) => (
              <tr key={n.id}>
                <td>
                  <Link href={`/studio/notes/${n.id}/review`}>
                    <span className={styles.noteId}>{n.id}</span> {n.title ?? "(untitled)"}
                  </Link>
                </td>
                <td>{n.status ? STATUS_LABEL[n.status] : ""}</td>
                <td>{n.openThreads}</td>
                <td>{VERDICT[n.verdictState]}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <table className={styles.table}>
        <caption>Threads awaiting your reply ({inbox.awaitingReply.length})</caption>
        <thead>
          <tr>
            <th scope="col">Note</th>
            <th scope="col">Section</th>
            <th scope="col">Last comment</th>
          </tr>
        </thead>
        <tbody>
          {inbox.awaitingReply.length === 0 ? (
            <tr>
              <td colSpan={3}>No thread waits for your reply.</td>
            </tr>
          ) : null}
          {inbox.awaitingReply.map((r) => (
            <tr key={r.thread.id}>
              <td>
                <Link href={`/studio/notes/${r.id}/review`}>
                  <span className={styles.noteId}>{r.id}</span> {r.title ?? "(untitled)"}
                </Link>
              </td>
              <td>
                {HEADING[r.thread.section]}
                {r.thread.outdated ? " (outdated)" : ""}
              </td>
              <td>
                {r.last.by}, <time dateTime={r.last.at}>{shortDate(r.last.at)}</time>: {r.last.text.length > 120 ? `${r.last.text.slice(0, 119)}…` : r.last.text}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
