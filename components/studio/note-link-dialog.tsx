"use client";

import { useEffect, useId, useRef, useState } from "react";
import { matchNotes, type NoteChoice } from "@/lib/hooks/note-choices";
import styles from "./studio.module.css";

export type { NoteChoice };

/**
 * "Link to a note" (a published one): a modal dialog (the browser's own <dialog>: Esc closes it)
 * that finds a note by id or title and hands back the one chosen. Enter takes the first match.
 * Closing puts focus back on the button that opened it at once, before the dialog leaves the page:
 * a keyboard user's next Enter opens it again, however soon it comes.
 */
export function NoteLinkDialog(props: { notes: NoteChoice[]; onPick: (note: NoteChoice) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState("");
  const headingId = useId();
  const matches = matchNotes(props.notes, query).slice(0, 12);
  // The button that opened it (focused when the dialog mounts), to go back to.
  const returnTo = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    returnTo.current = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  // Closed here, not by unmounting: a dialog removed from the page while open leaves focus on the
  // body until something moves it.
  const close = () => {
    ref.current?.close();
    const back = returnTo.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };
  const cancel = () => {
    close();
    props.onClose();
  };
  // Closed before handing the choice back: while it is open the page behind it is inert, and the
  // editor could not focus its textarea to insert the link.
  const pick = (note: NoteChoice) => {
    close();
    props.onPick(note);
  };

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={headingId}
      onCancel={(e) => {
        e.preventDefault();
        cancel();
      }}
    >
      <h2 id={headingId}>Link to a note</h2>
      <label htmlFor={`${headingId}-find`}>Find a note by id or title</label>
      <input
        id={`${headingId}-find`}
        type="search"
        autoFocus
        value={query}
        autoComplete="off"
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          // Never the editor's form: Enter here chooses, it does not save the note.
          e.preventDefault();
          if (matches[0]) pick(matches[0]);
        }}
      />
      {matches.length ? (
        <ul className={styles.choices}>
          {matches.map((n) => (
            <li key={n.id}>
              <button type="button" onClick={() => pick(n)}>
                <span className={styles.noteId}>{n.id}</span> {n.title}
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.hint}>No published note matches &ldquo;{query}&rdquo;.</p>
      )}
      <button type="button" onClick={cancel}>
        Cancel
      </button>
    </dialog>
  );
}
