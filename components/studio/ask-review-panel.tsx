"use client";

import { useId, useState } from "react";
import type { NoteView } from "@/lib/studio/note-view";
import { useReview, useReviewers, useReviewWrite } from "@/lib/queries/use-review";
import { StudioApiError } from "@/lib/queries/fetch";
import { Button } from "@/components/ui/button";
import { ChangeTime } from "./change-time";
import styles from "./studio.module.css";

/**
 * "Ask for a review": the author names reviewers (or none: any reviewer) for the revision they
 * are looking at. The request is a review record on the server, so it shows in those reviewers'
 * inboxes on every instance; the requests already made for this revision are listed here.
 */
export function AskReviewPanel({ view, busy }: { view: NoteView; busy: boolean }) {
  const id = view.id;
  const formId = useId();
  const { data: people, isError } = useReviewers(true);
  const { data: review } = useReview(id);
  const write = useReviewWrite(id);
  const [chosen, setChosen] = useState<string[]>([]);
  const [text, setText] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const mine = (review?.requests ?? []).filter((r) => r.revision === view.noteRevision);
  const available = (people?.reviewers ?? []).filter((p) => !view.revisionAuthors.includes(p.id));
  const purpose = view.source === "published" ? "verify this hypothesis" : "review this revision before it is published";

  const ask = async () => {
    setMessage(null);
    try {
      await write.mutateAsync({ action: "ask", revision: view.noteRevision, reviewers: chosen, ...(text.trim() ? { text: text.trim() } : {}) });
      const names = available.filter((p) => chosen.includes(p.id)).map((p) => p.displayName);
      setMessage({ ok: true, text: `Asked ${names.length ? names.join(", ") : "any reviewer"} to ${purpose}.` });
      setChosen([]);
      setText("");
    } catch (e) {
      setMessage({ ok: false, text: e instanceof StudioApiError ? e.message : "The request could not be sent." });
    }
  };

  return (
    <section className={styles.panel} aria-labelledby={`${formId}-heading`}>
      <h2 id={`${formId}-heading`}>Ask for a review</h2>
      <p className={styles.hint}>Reviewers you name see it under “Requested from you”; with nobody named, every reviewer sees it as waiting.</p>
      {mine.length ? (
        <ul className={styles.threadList}>
          {mine.map((r) => (
            <li key={r.id}>
              {r.by.name} asked {r.reviewers.length ? r.reviewers.map((p) => p.name).join(", ") : "any reviewer"}, <ChangeTime iso={r.at} />
            </li>
          ))}
        </ul>
      ) : null}
      <fieldset className={styles.field}>
        <legend>Reviewers</legend>
        {isError ? <p className={styles.hint}>The list of reviewers could not be read just now.</p> : null}
        {available.length === 0 && people ? <p className={styles.hint}>No reviewer other than this note’s authors has an account.</p> : null}
        {available.map((p) => (
          <label key={p.id} className={styles.check}>
            <input
              type="checkbox"
              checked={chosen.includes(p.id)}
              onChange={(e) => setChosen((c) => (e.target.checked ? [...c, p.id] : c.filter((x) => x !== p.id)))}
            />{" "}
            {p.displayName}
            {p.displayName !== p.name ? <span className={styles.hint}> ({p.name})</span> : null}
          </label>
        ))}
      </fieldset>
      <div className={styles.field}>
        <label htmlFor={`${formId}-text`}>Message (optional)</label>
        <textarea id={`${formId}-text`} rows={2} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <p>
        <Button variant="secondary" disabled={busy || write.isPending} onClick={ask}>
          {chosen.length ? `Ask ${chosen.length === 1 ? "this reviewer" : `these ${chosen.length} reviewers`}` : "Ask any reviewer"}
        </Button>
      </p>
      {message ? (
        <p role={message.ok ? "status" : "alert"} className={message.ok ? undefined : styles.unmet}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
