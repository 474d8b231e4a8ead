"use client";

import { useEffect, useRef } from "react";
import Link from "next/link";
import { useQueryClient } from "@tanstack/react-query";
import { SECTIONS } from "@/lib/notes/schema";
import { reviewKeys, useReview } from "@/lib/queries/use-review";
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
        {reviewer ? null : <span className={styles.hint}> — the unpublished version as readers will see it, with its diff and every thread</span>}
      </p>
    </section>
  );
}

/** A save may outdate threads: the review is read again whenever the revision being edited moves. */
export function useReviewFollows(id: string, revision: string) {
  const client = useQueryClient();
  const seen = useRef(revision);
  useEffect(() => {
    if (!id || seen.current === revision) return;
    seen.current = revision;
    void client.invalidateQueries({ queryKey: reviewKeys.review(id) });
  }, [client, id, revision]);
}

/**
 * Under a section in the editor: how many review threads it has, as one link to them on the review
 * page (where they are read beside the passage they quote and answered). The threads themselves are
 * not repeated here, so the writing column stays a column of fields. Nothing when there are none.
 */
export function SectionThreadCount({ id, section, heading }: { id: string; section: string; heading: string }) {
  const { data: review } = useReview(id);
  const threads = (review?.threads ?? []).filter((t) => t.section === section);
  if (threads.length === 0) return null;
  const open = threads.filter((t) => !t.resolved);
  const outdated = open.filter((t) => t.outdated).length;
  const first = open[0] ?? threads[0]!;
  const words = [
    open.length ? `${open.length} open review thread${open.length === 1 ? "" : "s"}` : null,
    threads.length > open.length ? `${threads.length - open.length} resolved` : null,
    outdated ? `${outdated} outdated` : null,
  ].filter(Boolean);
  return (
    <p className={styles.sectionThreads} data-open={open.length || undefined}>
      <Link href={`/studio/notes/${id}/review#thread-${first.id}`} aria-label={`${words.join(", ")} on ${heading}: read and answer on the review page`}>
        {words.join(" · ")}
      </Link>{" "}
      <span className={styles.hint}>on the review page</span>
    </p>
  );
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
