"use client";

import { useEffect, useId, useRef, useState } from "react";
import styles from "./studio.module.css";

/**
 * "Describe the image": asked after an upload, before the image goes into the text. A modal
 * dialog (the browser's own <dialog>: Esc cancels, the page behind is inert) labelled by its
 * heading, showing the uploaded image so the author describes what is there. Alt text is required,
 * as the server requires it (rule `images`): an empty answer is refused here with a message tied
 * to the field, and Cancel inserts nothing. Focus goes back to where it was when the dialog opened;
 * after Insert the editor puts it in the text, after the image.
 */
export function AltTextDialog(props: { url: string; fileName: string; onDescribe: (alt: string) => void; onCancel: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [alt, setAlt] = useState("");
  const [refused, setRefused] = useState(false);
  const id = useId();
  // Whatever had focus before (the textarea it was pasted into, the Image button), to go back to.
  const returnTo = useRef<Element | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    returnTo.current = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const close = () => {
    // Closed before the editor inserts: while it is open the page behind it is inert.
    ref.current?.close();
    const back = returnTo.current;
    if (back instanceof HTMLElement && back.isConnected) back.focus();
  };
  const insert = () => {
    if (!alt.trim()) {
      setRefused(true);
      return;
    }
    close();
    props.onDescribe(alt);
  };
  const cancel = () => {
    close();
    props.onCancel();
  };

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={`${id}-heading`}
      aria-describedby={`${id}-why`}
      onCancel={(e) => {
        e.preventDefault();
        cancel();
      }}
    >
      <h2 id={`${id}-heading`}>Describe the image</h2>
      {/* eslint-disable-next-line @next/next/no-img-element -- the just-uploaded image at its own URL; next/image has nothing to optimise here */}
      <img className={styles.altPreview} src={props.url} alt="" />
      <p id={`${id}-why`} className={styles.hint}>
        Readers who cannot see {props.fileName} hear this text instead. Say what it shows, and what it shows about the note.
      </p>
      <label htmlFor={`${id}-alt`}>Alt text (required)</label>
      <input
        id={`${id}-alt`}
        type="text"
        autoFocus
        required
        autoComplete="off"
        value={alt}
        aria-invalid={refused || undefined}
        aria-describedby={refused ? `${id}-refused` : undefined}
        onChange={(e) => {
          setAlt(e.target.value);
          if (e.target.value.trim()) setRefused(false);
        }}
        onKeyDown={(e) => {
          if (e.key !== "Enter") return;
          // Never the editor's form: Enter here inserts the image, it does not save the note.
          e.preventDefault();
          insert();
        }}
      />
      {refused ? (
        <p id={`${id}-refused`} className={styles.fieldError} role="alert">
          Alt text is required: say what the image shows, or cancel to leave the image out.
        </p>
      ) : null}
      <div className={styles.dialogActions}>
        <button type="button" onClick={insert}>
          Insert image
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
