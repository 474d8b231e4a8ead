"use client";

import dynamic from "next/dynamic";
import type { Where } from "@/lib/rules/api-errors";
import type { NoteChoice } from "@/lib/hooks/note-choices";
import { FieldError } from "./field-error";
import styles from "./studio.module.css";

// The Markdown editor is a chunk of its own (it cannot render on the server). Asked for as soon as
// this module runs in the browser, beside the page's other scripts, rather than when the first
// field mounts after hydration: that waited for hydration and then a round trip (bench:studio).
const loadMarkdownField = () => import("./markdown-field");
if (typeof window !== "undefined") void loadMarkdownField();

const MarkdownField = dynamic(loadMarkdownField, {
  ssr: false,
  loading: () => <p className={styles.loading}>Loading the editor…</p>,
});

/**
 * A note section (Decision, Invariant, …): its heading is the field's accessible name. The colours
 * follow the page's scheme (prefers-color-scheme through app/globals.css), never a fixed one.
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
  return (
    <div className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <label className={styles.sectionLabel} htmlFor={id}>
        {props.name}
      </label>
      <p className={styles.hint}>{props.hint}</p>
      <div className={styles.markdown}>
        <MarkdownField
          id={id}
          name={props.name}
          value={props.value}
          onChange={props.onChange}
          onBlur={props.onBlur}
          readOnly={props.readOnly}
          notes={props.notes}
          invalid={props.problems.length > 0}
          describedBy={props.problems.length ? errorId : undefined}
        />
      </div>
      <FieldError id={errorId} problems={props.problems} />
    </div>
  );
}
