"use client";

import type { Where } from "@/lib/rules/api-errors";
import type { NoteChoice } from "@/lib/hooks/note-choices";
import { FieldError } from "./field-error";
import MarkdownField from "./markdown-field";
import styles from "./studio.module.css";

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
