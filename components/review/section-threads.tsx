"use client";

import { useEffect, useRef, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { SectionKey } from "@/lib/notes/schema";
import type { Actor } from "@/lib/rules/status-machine";
import type { ReviewComment, ReviewThread } from "@/lib/review/derive";
import type { ReviewView } from "@/lib/review/read-review";
import { reviewKeys, useReview, useReviewWrite } from "@/lib/queries/use-review";
import { ChangeTime } from "@/components/studio/change-time";
import { Button } from "@/components/ui/button";
import { CommentText } from "./comment-text";
import { MentionTextarea } from "./mention-textarea";
import styles from "./review.module.css";

/**
 * The review threads on one section of a note, shown beside it in the review view and the editor:
 * start a thread (optionally on a quoted passage), reply, edit one's own comment, resolve, reopen.
 * An outdated thread says so and still shows the text it was about. No <form> here: in the editor
 * these sit inside the note's own form, where a nested form's submit would save the note. Each
 * thread is addressable (#thread-<id>), so the inbox can link straight to it.
 */
export function SectionThreads(props: {
  noteId: string;
  section: SectionKey;
  heading: string;
  revision: string;
  actor: Actor;
  initial?: ReviewView;
  /** The section's Markdown at `revision`: lets a text selection in the rendered passage become the quote. */
  source?: string;
}) {
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
    <section className={styles.threads} data-empty={threads.length ? undefined : true} aria-label={`Review of ${props.heading}`}>
      {/* With no thread yet the button alone says what can be done here; the region keeps its name. */}
      {threads.length ? (
        <h3>
          Review threads on {props.heading}
          <span className={styles.count}>{` (${open} open of ${threads.length})`}</span>
        </h3>
      ) : null}
      {threads.map((t) => (
        <Thread key={t.id} noteId={props.noteId} heading={props.heading} actor={props.actor} thread={t} revision={props.revision} />
      ))}
      <StartThread {...props} />
    </section>
  );
}

function Thread(props: { noteId: string; heading: string; actor: Actor; thread: ReviewThread; revision: string }) {
  const { thread: t } = props;
  const write = useReviewWrite(props.noteId);
  const [reply, setReply] = useState("");
  const label = `Thread on ${props.heading}`;
  return (
    <article
      id={`thread-${t.id}`}
      className={styles.thread}
      data-resolved={t.resolved || undefined}
      data-outdated={t.outdated || undefined}
      aria-label={label}
      data-thread={t.id}
      tabIndex={-1}
    >
      <p className={styles.markers}>
        <span className={styles.marker} data-state={t.resolved ? "resolved" : "open"}>
          {t.resolved ? "Resolved" : "Open"}
        </span>
        {t.outdated ? (
          <span className={styles.marker} data-state="outdated">
            Outdated
          </span>
        ) : null}
        <span className={styles.meta}>
          {/* The version in words; its commit id only as a detail. */}
          on {t.revision === props.revision ? "this version" : "an earlier version"} <code className={styles.rev}>{t.revision.slice(0, 7)}</code>
        </span>
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
        <MentionTextarea id={`reply-${t.id}`} className="input" rows={2} value={reply} onValueChange={setReply} />
        <div className={styles.actions}>
          <Button
            size="small"
            disabled={write.isPending || reply.trim() === ""}
            onClick={() => write.mutate({ action: "reply", thread: t.id, text: reply }, { onSuccess: () => setReply("") })}
          >
            Reply
          </Button>
          <Button
            size="small"
            variant="quiet"
            disabled={write.isPending}
            onClick={() => write.mutate({ action: t.resolved ? "reopen" : "resolve", thread: t.id })}
          >
            {t.resolved ? "Reopen" : "Resolve"}
          </Button>
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
        <strong>{c.by.name}</strong> · <ChangeTime iso={c.at} />
        {c.editedAt ? (
          <>
            {" "}
            · edited <ChangeTime iso={c.editedAt} />
          </>
        ) : null}
      </p>
      {editing === null ? (
        <p className={styles.text}>
          <CommentText text={c.text} />
        </p>
      ) : (
        <div className={styles.form} role="group" aria-label="Edit your comment">
          <label htmlFor={`edit-${c.id}`}>Edit your comment</label>
          <MentionTextarea id={`edit-${c.id}`} className="input" rows={3} value={editing} onValueChange={setEditing} />
          <div className={styles.actions}>
            <Button
              size="small"
              disabled={write.isPending || editing.trim() === ""}
              onClick={() => write.mutate({ action: "edit", thread: props.thread, comment: c.id, text: editing }, { onSuccess: () => setEditing(null) })}
            >
              Save comment
            </Button>
            <Button size="small" variant="quiet" onClick={() => setEditing(null)}>
              Cancel
            </Button>
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
                <ChangeTime iso={h.at} />: <span className={styles.text}>{h.text}</span>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {mine && editing === null ? (
        <Button size="small" variant="quiet" onClick={() => setEditing(c.text)}>
          Edit
        </Button>
      ) : null}
    </li>
  );
}

function StartThread(props: { noteId: string; section: SectionKey; heading: string; revision: string; source?: string }) {
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
      <Button
        size="small"
        // Text selected in this section's rendered passage becomes the quote (mousedown: a click
        // may already have moved the selection); by keyboard the quote field takes it by hand.
        onMouseDown={() => setQuote(selectedIn(props.section, props.source))}
        onClick={() => setOpen(true)}
      >
        Comment on {props.heading}
      </Button>
    );
  }
  return (
    <div className={styles.form} role="group" aria-label={`New thread on ${props.heading}`}>
      <label htmlFor={`${id}-quote`}>Quoted passage (optional)</label>
      <input
        id={`${id}-quote`}
        type="text"
        className="input"
        value={quote}
        onChange={(e) => setQuote(e.target.value)}
        // Enter would submit the editor's form around this one.
        onKeyDown={(e) => e.key === "Enter" && e.preventDefault()}
      />
      <label htmlFor={`${id}-text`}>Your comment on {props.heading}</label>
      <MentionTextarea id={`${id}-text`} className="input" rows={3} autoFocus value={text} onValueChange={setText} />
      <div className={styles.actions}>
        <Button size="small" variant="primary" disabled={write.isPending || text.trim() === ""} onClick={start}>
          Start thread
        </Button>
        <Button size="small" variant="quiet" onClick={() => setOpen(false)}>
          Cancel
        </Button>
      </div>
      {write.error ? (
        <p role="alert" className={styles.error}>
          {write.error.message}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The text selected inside the section's rendered passage (the element marked data-section), as it
 * appears in the section's Markdown: the server accepts a quote only when the source contains it,
 * and rendering drops emphasis marks and joins lines, so the longest selected line the source has
 * verbatim is taken. Empty when nothing usable is selected there.
 */
function selectedIn(section: SectionKey, source: string | undefined): string {
  const selection = window.getSelection();
  if (!selection || selection.isCollapsed || source === undefined) return "";
  const inside = (n: Node | null) => !!(n instanceof Element ? n : n?.parentElement)?.closest(`[data-section="${section}"] .prose`);
  if (!inside(selection.anchorNode) || !inside(selection.focusNode)) return "";
  const text = selection.toString().trim();
  if (text.length <= 1000 && source.includes(text)) return text;
  const lines = text
    .split(/\n+/)
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && l.length <= 1000 && source.includes(l));
  return lines.sort((x, y) => y.length - x.length)[0] ?? "";
}
