"use client";

import { lazy, useSyncExternalStore } from "react";
import styles from "./studio.module.css";

/**
 * A section's field before the Markdown editor (./markdown-field.tsx, @uiw/react-md-editor) has
 * arrived: a plain textarea with the field's id, value and handlers, rendered on the server too, so
 * the editor page can be read and typed in before that chunk is fetched and run (the page waited
 * for it: 0.9–2.2 s to a usable form, bench:studio). The chunk is asked for as soon as this module
 * runs in the browser, not at the first render; `markdownFieldChunk` tells the fields when it is
 * there, and puts the caret back where it was if someone was typing.
 */
export function PlainMarkdownField(props: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  readOnly: boolean;
  invalid: boolean;
  describedBy?: string;
}) {
  // Read-only until the page is hydrated: text typed into the server's HTML before React handles
  // the field would never reach the editor's state, and be lost when the editor arrives.
  const hydrated = useSyncExternalStore(noChange, isClient, isServer);
  return (
    <textarea
      id={props.id}
      className={styles.plainMarkdown}
      data-plain-markdown=""
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
      onBlur={props.onBlur}
      readOnly={props.readOnly || !hydrated}
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
      rows={Math.max(4, props.value.split("\n").length + 1)}
      spellCheck
    />
  );
}

const noChange = () => () => undefined;
const isClient = () => true;
const isServer = () => false;

type Caret = { id: string; start: number; end: number };

// Asked for as soon as this module runs in the browser (never on the server: the editor is not
// rendered there).
const chunk = typeof window === "undefined" ? null : import("./markdown-field");

/** The Markdown editor, once its chunk is here (`markdownFieldChunk.ready`). */
export const LoadedMarkdownField = lazy(() => chunk ?? import("./markdown-field"));

function chunkStore() {
  let ready = false;
  let caret: Caret | null = null;
  const listeners = new Set<() => void>();
  void chunk?.then(
    () => {
      const active = document.activeElement;
      if (active instanceof HTMLTextAreaElement && active.hasAttribute("data-plain-markdown")) {
        caret = { id: active.id, start: active.selectionStart, end: active.selectionEnd };
      }
      ready = true;
      for (const listener of listeners) listener();
    },
    // Not fetched (offline, a new build): the plain field stays, and still saves.
    () => undefined,
  );
  return {
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    ready: () => ready,
    readyOnServer: () => false,
    restoreFocus(id: string) {
      if (caret?.id !== id) return;
      const textarea = document.getElementById(id);
      if (textarea instanceof HTMLTextAreaElement) {
        textarea.focus();
        textarea.setSelectionRange(caret.start, caret.end);
      }
      caret = null;
    },
  };
}

export const markdownFieldChunk = chunkStore();
