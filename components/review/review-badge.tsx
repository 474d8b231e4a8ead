"use client";

import Link from "next/link";
import { useReviewInbox } from "@/lib/queries/use-review";
import styles from "./review.module.css";

const VERDICT = { approved: "approved", "changes-requested": "changes requested", awaiting: "awaiting a verdict" } as const;

/** A draft's review at a glance on the studio list: open threads and the verdict on its current revision, linking to the review view. */
export function ReviewBadge({ id }: { id: string }) {
  const { data } = useReviewInbox();
  const summary = data?.notes.find((n) => n.id === id);
  if (!summary) return null;
  const threads = `${summary.openThreads} open thread${summary.openThreads === 1 ? "" : "s"}`;
  return (
    <Link className={styles.badge} href={`/studio/notes/${id}/review`} aria-label={`Review of ${id}: ${threads}, ${VERDICT[summary.verdictState]}`}>
      Review: {threads}, {VERDICT[summary.verdictState]}
    </Link>
  );
}
