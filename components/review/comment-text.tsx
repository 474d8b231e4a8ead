"use client";

import { Fragment, type ReactNode } from "react";
import { mentionSpans } from "@/lib/rules/mentions";
import { usePeople } from "@/lib/queries/use-notifications";
import styles from "./review.module.css";

/** A comment's text with each `@name` of a person shown as a mention; an unknown name stays plain text. */
export function CommentText({ text }: { text: string }) {
  const spans = mentionSpans(text);
  const { data } = usePeople(spans.length > 0);
  const known = new Set((data?.people ?? []).map((p) => p.name.toLowerCase()));
  const parts: ReactNode[] = [];
  let at = 0;
  for (const s of spans) {
    if (!known.has(s.name)) continue;
    parts.push(
      <Fragment key={`t${at}`}>{text.slice(at, s.start)}</Fragment>,
      <strong key={`m${s.start}`} className={styles.mention}>
        {text.slice(s.start, s.end)}
      </strong>,
    );
    at = s.end;
  }
  parts.push(<Fragment key={`t${at}`}>{text.slice(at)}</Fragment>);
  return <>{parts}</>;
}
