"use client";

import { useState } from "react";
import { openChangeRequests, type Actor } from "@/lib/rules/status-machine";
import type { ReviewView } from "@/lib/review/read-review";
import { useReview, useReviewWrite } from "@/lib/queries/use-review";
import { ChangeTime } from "@/components/studio/change-time";
import { Button } from "@/components/ui/button";
import styles from "./review.module.css";

const STATE_LABEL: Record<ReviewView["verdictState"], string> = {
  approved: "Approved",
  "changes-requested": "Changes requested",
  awaiting: "Awaiting a verdict",
};

/**
 * The end of a review: "Approve" (the primary action) or "Request changes" on the revision this
 * page shows, by a reviewer who wrote none of it, and every verdict given so far (an earlier
 * revision's marked stale). The verdict names the revision the page was rendered with, not the
 * latest one the review query happens to know: a reviewer approves what they read. When the note
 * moved on meanwhile, the panel says so and asks for a reload (the server would refuse anyway).
 */
export function VerdictPanel(props: { noteId: string; actor: Actor; initial?: ReviewView; revision: string; version: string }) {
  const { noteId, actor, revision } = props;
  const { data: review } = useReview(noteId, props.initial);
  const write = useReviewWrite(noteId);
  const [summary, setSummary] = useState("");
  const [given, setGiven] = useState<string | null>(null);
  if (!review) return null;
  const own = review.revisionAuthors.includes(actor.id);
  // A request for changes holds the note back until its reviewer approves a later revision or withdraws it.
  const standing = new Set(
    openChangeRequests(review.state).flatMap((r) =>
      review.verdicts.filter((v) => v.reviewer.id === r.reviewer && v.revision === r.revision && !v.replaced && !v.withdrawnAt).map((v) => v.id),
    ),
  );
  const withdraw = (verdict: string) => write.mutate({ action: "withdraw", verdict }, { onSuccess: () => setGiven("You withdrew your request for changes.") });
  const moved = review.currentRevision !== revision;
  const give = (verdict: "approve" | "request-changes") =>
    write.mutate(
      { action: "verdict", verdict, revision, ...(summary.trim() ? { summary: summary.trim() } : {}) },
      {
        onSuccess: () => {
          setSummary("");
          setGiven(verdict === "approve" ? `You approved ${props.version}.` : `You requested changes on ${props.version}.`);
        },
      },
    );

  return (
    <section id="verdict" className={styles.verdict} aria-labelledby="verdict-heading" tabIndex={-1}>
      <h2 id="verdict-heading">Verdict: {STATE_LABEL[review.verdictState]}</h2>
      <p className={styles.meta}>
        A verdict counts for {props.version} (<code>{revision.slice(0, 7)}</code>) only: the revision the author can promote with an approval.
      </p>
      {moved ? (
        <p role="alert" className={styles.warning}>
          The note was saved again (revision <code>{review.currentRevision.slice(0, 7)}</code>) after this page was opened.{" "}
          <a href={`/studio/notes/${noteId}/review`}>Reload the review</a> to read that revision before giving a verdict.
        </p>
      ) : null}
      {actor.role !== "reviewer" ? (
        <p className={styles.meta}>Reviewers give verdicts; authors answer threads and save new revisions.</p>
      ) : own ? (
        <p className={styles.meta}>You wrote a revision of this note, so your verdict would not count: ask another reviewer.</p>
      ) : (
        <div className={styles.form}>
          <label htmlFor="verdict-summary">Summary (optional)</label>
          <textarea id="verdict-summary" className="input" rows={3} value={summary} onChange={(e) => setSummary(e.target.value)} />
          <div className={styles.actions}>
            <Button variant="primary" className={styles.approve} disabled={write.isPending || moved} onClick={() => give("approve")}>
              Approve
            </Button>
            <Button variant="secondary" disabled={write.isPending || moved} onClick={() => give("request-changes")}>
              Request changes
            </Button>
          </div>
        </div>
      )}
      <p role="status" className={styles.ok}>
        {given && !write.isPending ? given : ""}
      </p>
      {write.error ? (
        <p role="alert" className={styles.error}>
          {write.error.message}
        </p>
      ) : null}
      <h3 className={styles.subheading}>Verdicts given</h3>
      <ul className={styles.verdicts} aria-label="Verdicts given">
        {review.verdicts.length === 0 ? <li className={styles.meta}>No verdict yet.</li> : null}
        {[...review.verdicts].reverse().map((v) => (
          <li key={v.id} data-stale={v.stale || undefined}>
            <strong>{v.reviewer.name}</strong> {v.verdict === "approve" ? "approved" : "requested changes on"}{" "}
            {v.revision === revision ? "this version" : "an earlier version"} <code>{v.revision.slice(0, 7)}</code> · <ChangeTime iso={v.at} />
            {v.stale ? <span className={styles.tag}>stale: the note has changed since</span> : null}
            {v.replaced ? <span className={styles.tag}>replaced by a later verdict</span> : null}
            {v.selfVerdict ? <span className={styles.tag}>by an author: does not count</span> : null}
            {v.withdrawnAt ? <span className={styles.tag}>withdrawn</span> : null}
            {v.summary ? <p className={styles.text}>{v.summary}</p> : null}
            {standing.has(v.id) && v.reviewer.id === actor.id ? (
              <p>
                <Button size="small" variant="quiet" disabled={write.isPending} onClick={() => withdraw(v.id)}>
                  Withdraw my request for changes
                </Button>
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
