"use client";

import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { SectionKey } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { ReviewComment, ReviewThread } from "@/lib/review/derive";
import type { ReviewView } from "@/lib/review/read-review";
import { reviewKeys, useReview, useReviewWrite } from "@/lib/queries/use-review";
import { shortDate } from "@/components/studio/short-date";
import styles from "./review.module.css";

/**
 * The review threads on one section of a note, shown beside it in the review view and the editor:
 * start a thread (optionally on a quoted passage), reply, edit one's own comment, resolve, reopen.
 * An outdated thread says so and still shows the text it was about. No <form> here: in the editor
 * these sit inside the note's own form, where a nested form's submit would save the note.
 */
export function SectionThreads(props: { noteId: string; section: SectionKey; heading: string; revision: string; actor: Actor; initial?: ReviewView }) {
  const { data: review } = useReview(props.noteId, props.initial);
  // A new save may outdate threads: read the review again when the revision being edited moves.
  const client = useQueryClient();
  const seen = useRef(props.revision);
  useEffect(() => {
    if (seen.current === props.revision) return;
    seen.current = props.revision;
    void client.invalidateQueries({ queryKey: reviewKeys.review(props.noteId) });
  }, [client, props.noteId, props.revision]);
  const threads = (review?.threads ?? []).filter((t) => t.section === props.section);
  const open = threads.filter((t) => !t.resolved).length;
  return (
    <section className={styles.threads} aria-label={`Review of ${props.heading}`}>
      <h3>
        Review threads on {props.heading}
        {threads.length ? ` (${open} open of ${threads.length})` : ""}
      </h3>
      {threads.map((t) => (
        <Thread key={t.id} noteId={props.noteId} heading={props.heading} actor={props.actor} thread={t} />
      ))}
      <StartThread {...props} />
    </section>
  );
}

function Thread(props: { noteId: string; heading: string; actor: Actor; thread: ReviewThread }) {
  const { thread: t } = props;
  const write = useReviewWrite(props.noteId);
  const [reply, setReply] = useState("");
  const label = `Thread on ${props.heading}`;
  return (
    <article className={styles.thread} data-resolved={t.resolved || undefined} aria-label={label} data-thread={t.id}>
      <p className={styles.markers}>
        <span className={styles.marker}>{t.resolved ? "Resolved" : "Open"}</span>
        {t.outdated ? <span className={styles.marker}>Outdated</span> : null}
        <span className={styles.meta}>on revision {t.revision.slice(0, 7)}</span>
      </p>
      {t.quote ? <blockquote className={styles.quote}>{t.quote}</blockquote> : null}
      {t.outdated ? (
        <details>
          <summary>The section has changed since; what it said then</summary>
          <p className={styles.text}>{t.anchor || "(empty)"}</p>
        </details>
      ) : null}
      <ol className={styles.comments}>
        {t.comments.map((c) => (
          <Comment key={c.id} noteId={props.noteId} actor={props.actor} comment={c} thread={t.id} />
        ))}
      </ol>
      <div className={styles.form} role="group" aria-label={`Reply to the ${label.toLowerCase()}`}>
        <label htmlFor={`reply-${t.id}`}>Reply to this thread</label>
        <textarea id={`reply-${t.id}`} rows={2} value={reply} onChange={(e) => setReply(e.target.value)} />
        <div className={styles.row}>
          <button type="button" disabled={write.isPending || reply.trim() === ""} onClick={() => write.mutate({ action: "reply", thread: t.id, text: reply }, { onSuccess: () => setReply("") })}>
            Reply
          </button>
          <button type="button" disabled={write.isPending} onClick={() => write.mutate({ action: t.resolved ? "reopen" : "resolve", thread: t.id })}>
            {t.resolved ? "Reopen" : "Resolve"}
          </button>
        </div>
        {write.error ? (
          <p role="alert" className={styles.error}>
            {write.error.message}
          </p>
        ) : null}
      </div>
    </article>
  );
}

function Comment(props: { noteId: string; actor: Actor; thread: string; comment: ReviewComment }) {
  const { comment: c } = props;
  const write = useReviewWrite(props.noteId);
  const [editing, setEditing] = useState<string | null>(null);
  const mine = c.by.id === props.actor.id;
  return (
    <li>
      <p className={styles.meta}>
        <strong>{c.by.name}</strong> · <time dateTime={c.at}>{shortDate(c.at)}</time>
        {c.editedAt ? (
          <>
            {" "}
            · edited <time dateTime={c.editedAt}>{shortDate(c.editedAt)}</time>
          </>
        ) : null}
      </p>
      {editing === null ? (
        <p className={styles.text}>{c.text}</p>
      ) : (
        <div className={styles.form} role="group" aria-label="Edit your comment">
          <label htmlFor={`edit-${c.id}`}>Edit your comment</label>
          <textarea id={`edit-${c.id}`} rows={3} value={editing} onChange={(e) => setEditing(e.target.value)} />
          <div className={styles.row}>
            <button
              type="button"
              disabled={write.isPending || editing.trim() === ""}
              onClick={() => write.mutate({ action: "edit", thread: props.thread, comment: c.id, text: editing }, { onSuccess: () => setEditing(null) })}
            >
              Save comment
            </button>
            <button type="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
          {write.error ? (
            <p role="alert" className={styles.error}>
              {write.error.message}
            </p>
          ) : null}
        </div>
      )}
      {c.history.length ? (
        <details>
          <summary>Earlier versions ({c.history.length})</summary>
          <ol>
            {c.history.map((h, i) => (
              <li key={i}>
                <time dateTime={h.at}>{shortDate(h.at)}</time>: <span className={styles.text}>{h.text}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {mine && editing === null ? (
        <button type="button" onClick={() => setEditing(c.text)}>
          Edit
        </button>
      ) : null}
    </li>
  );
}

function StartThread(props: { noteId: string; section: SectionKey; heading: string; revision: string }) {
  const write = useReviewWrite(props.noteId);
  const [open, setOpen] = useState(false);
  const [quote, setQuote] = useState("");
  const [text, setText] = useState("");
  const id = `start-${props.section}`;
  const start = () =>
    write.mutate(
      { action: "start", section: props.section, revision: props.revision, text, ...(quote.trim() ? { quote: quote.trim() } : {}) },
      {
        onSuccess: () => {
          setOpen(false);
          setQuote("");
          setText("");
        },
      },
    );
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Comment on {props.heading}
      </button>
    );
  }
  return (
    <div className={styles.form} role="group" aria-label={`New thread on ${props.heading}`}>
      <label htmlFor={`${id}-quote`}>Quoted passage (optional)</label>
      <input
        id={`${id}-quote`}
        type="text"
        value={quote}
        onChange={(e) => setQuote(e.target.value)}
        // Enter would submit the editor's form around this one.
        onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
      />
      <label htmlFor={`${id}-text`}>Your comment on {props.heading}</label>
      <textarea id={`${id}-text`} rows={3} value={text} onChange={(e) => setText(e.target.value)} />
      <div className={styles.row}>
        <button type="button" disabled={write.isPending || text.trim() === ""} onClick={start}>
          Start thread
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      {write.error ? (
        <p role="alert" className={styles.error}>
          {write.error.message}
        </p>
      ) : null}
    </div>
  );
}
