"use client";

import { useState } from "react";
import type { Actor } from "@/lib/rules/status-machine";
import type { ReviewView } from "@/lib/review/read-review";
import { useReview, useReviewWrite } from "@/lib/queries/use-review";
import { shortDate } from "@/components/studio/short-date";
import styles from "./review.module.css";

const STATE_LABEL: Record<ReviewView["verdictState"], string> = {
  approved: "Approved",
  "changes-requested": "Changes requested",
  awaiting: "Awaiting a verdict",
};

/**
 * Verdicts on the note: "Approve" / "Request changes" on the current revision (reviewers who wrote
 * none of it), and every verdict given, an earlier revision's marked stale.
 */
export function VerdictPanel({ noteId, actor, initial }: { noteId: string; actor: Actor; initial?: ReviewView }) {
  const { data: review } = useReview(noteId, initial);
  const write = useReviewWrite(noteId);
  const [summary, setSummary] = useState("");
  if (!review) return null;
  const own = review.revisionAuthors.includes(actor.id);
  const give = (verdict: "approve" | "request-changes") =>
    write.mutate({ action: "verdict", verdict, revision: review.currentRevision, ...(summary.trim() ? { summary: summary.trim() } : {}) }, { onSuccess: () => setSummary("") });

  return (
    <section aria-labelledby="verdict-heading">
      <h2 id="verdict-heading">Verdict: {STATE_LABEL[review.verdictState]}</h2>
      <p className={styles.meta}>On revision {review.currentRevision.slice(0, 7)}, the one the status machine promotes.</p>
      {actor.role !== "reviewer" ? (
        <p className={styles.meta}>Reviewers give verdicts; authors answer threads and save new revisions.</p>
      ) : own ? (
        <p className={styles.meta}>You wrote a revision of this note, so your verdict would not count: ask another reviewer.</p>
      ) : (
        <div className={styles.form}>
          <label htmlFor="verdict-summary">Summary (optional)</label>
          <textarea id="verdict-summary" rows={3} value={summary} onChange={(e) => setSummary(e.target.value)} />
          <div className={styles.row}>
            <button type="button" disabled={write.isPending} onClick={() => give("approve")}>
              Approve
            </button>
            <button type="button" disabled={write.isPending} onClick={() => give("request-changes")}>
              Request changes
            </button>
          </div>
        </div>
      )}
      {write.error ? (
        <p role="alert" className={styles.error}>
          {write.error.message}
        </p>
      ) : null}
      <ul className={styles.verdicts} aria-label="Verdicts given">
        {review.verdicts.length === 0 ? <li>No verdict yet.</li> : null}
        {[...review.verdicts].reverse().map((v) => (
          <li key={v.id} data-stale={v.stale || undefined}>
            <strong>{v.reviewer.name}</strong>: {v.verdict === "approve" ? "approved" : "requested changes on"} revision {v.revision.slice(0, 7)} ·{" "}
            <time dateTime={v.at}>{shortDate(v.at)}</time>
            {v.stale ? <span className={styles.badge}>(stale: the note has changed since)</span> : null}
            {v.replaced ? <span className={styles.badge}>(replaced by a later verdict)</span> : null}
            {v.selfVerdict ? <span className={styles.badge}>(by an author: does not count)</span> : null}
            {v.summary ? <p className={styles.text}>{v.summary}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
