"use client";

import Link from "next/link";
import { SECTIONS } from "@/lib/notes/schema";
import { useReview } from "@/lib/queries/use-review";
import { ButtonLink } from "@/components/ui/button";
import styles from "./studio.module.css";

/**
 * The draft's review, beside the editor: how many threads are open, each one's section and first
 * words, and the way to the review page, where threads are answered and verdicts given.
 */
export function ReviewPanel({ id, reviewer }: { id: string; reviewer: boolean }) {
  const { data: review, isError } = useReview(id);
  const open = (review?.threads ?? []).filter((t) => !t.resolved);
  const href = `/studio/notes/${id}/review`;
  const heading = (key: string) => SECTIONS.find((s) => s.key === key)?.heading ?? key;
  return (
    <section className={styles.panel} aria-labelledby="review-heading">
      <h2 id="review-heading">Review</h2>
      {review ? (
        <p>{open.length === 0 ? "No open threads." : `${open.length} open thread${open.length === 1 ? "" : "s"}:`}</p>
      ) : (
        <p className={styles.hint}>{isError ? "The review could not be read just now." : "Reading the review…"}</p>
      )}
      {open.length ? (
        <ul className={styles.threadList}>
          {open.map((t) => {
            const first = t.comments[0]?.text ?? "";
            return (
              <li key={t.id}>
                <strong>{heading(t.section)}</strong>
                {t.outdated ? <span className={styles.hint}> (outdated)</span> : null}: {t.quote ? <q>{clip(t.quote, 60)}</q> : null} {clip(first, 90)}{" "}
                <span className={styles.hint}>— {t.comments.at(-1)?.by.name ?? t.by.name}</span>
              </li>
            );
          })}
        </ul>
      ) : null}
      <p>
        {reviewer ? (
          <ButtonLink variant="primary" href={href}>
            Open the review page
          </ButtonLink>
        ) : (
          <Link href={href}>Open the review page</Link>
        )}
        {reviewer ? null : <span className={styles.hint}> — the draft as readers will see it, with its diff and every thread</span>}
      </p>
    </section>
  );
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
