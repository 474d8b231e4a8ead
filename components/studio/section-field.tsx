"use client";

import { Suspense, useLayoutEffect, useSyncExternalStore } from "react";
import type { Where } from "@/lib/rules/api-errors";
import type { NoteChoice } from "@/lib/hooks/note-choices";
import { FieldError } from "./field-error";
import { LoadedMarkdownField, PlainMarkdownField, markdownFieldChunk } from "./plain-markdown-field";
import styles from "./studio.module.css";

/**
 * A note section (Decision, Invariant, …): its heading is the field's accessible name. The colours
 * follow the page's scheme (prefers-color-scheme through app/globals.css), never a fixed one.
 * Until the Markdown editor's chunk arrives the field is a plain textarea with the same id, value
 * and handlers (./plain-markdown-field.tsx), so the form is there to read and type in at once.
 */
export function SectionField(props: {
  name: string;
  hint: string;
  value: string;
  problems: Where[];
  readOnly: boolean;
  notes: NoteChoice[];
  onChange: (value: string) => void;
  onBlur: () => void;
}) {
  const id = `section-${props.name.toLowerCase().replace(/\s+/g, "-")}`;
  const errorId = `${id}-errors`;
  const loaded = useSyncExternalStore(markdownFieldChunk.subscribe, markdownFieldChunk.ready, markdownFieldChunk.readyOnServer);
  const field = {
    id,
    value: props.value,
    onChange: props.onChange,
    onBlur: props.onBlur,
    readOnly: props.readOnly,
    invalid: props.problems.length > 0,
    describedBy: props.problems.length ? errorId : undefined,
  };
  return (
    <div className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <label className={styles.sectionLabel} htmlFor={id}>
        {props.name}
      </label>
      <p className={styles.hint}>{props.hint}</p>
      <div className={styles.markdown}>
        {loaded ? (
          <Suspense fallback={<PlainMarkdownField {...field} />}>
            <LoadedMarkdownField {...field} name={props.name} notes={props.notes} />
            <RestoreCaret id={id} />
          </Suspense>
        ) : (
          <PlainMarkdownField {...field} />
        )}
      </div>
      <FieldError id={errorId} problems={props.problems} />
    </div>
  );
}

/** Whoever was typing in the plain field goes on typing in the editor, where they were (committed with it). */
function RestoreCaret({ id }: { id: string }) {
  useLayoutEffect(() => markdownFieldChunk.restoreFocus(id), [id]);
  return null;
}
