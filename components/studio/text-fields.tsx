"use client";

import { BOUNDARIES, BOUNDARY_LABEL, BOUNDARY_MEANING, type Boundary } from "@/lib/notes/schema";
import type { Where } from "@/lib/api/errors";
import { FieldError } from "./field-error";
import styles from "./studio.module.css";

/** The note's front-matter fields, each labelled with its name and showing its own problems. */

type Common = { problems: Where[]; readOnly: boolean; onBlur: () => void };

const idOf = (label: string) => `field-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

export function TextField(props: Common & { label: string; hint?: string; value: string; multiline?: boolean; suggestions?: string[]; onChange: (v: string) => void }) {
  const id = idOf(props.label);
  const errorId = `${id}-errors`;
  const shared = {
    id,
    value: props.value,
    readOnly: props.readOnly,
    onBlur: props.onBlur,
    "aria-invalid": props.problems.length > 0 || undefined,
    "aria-describedby": [props.hint ? `${id}-hint` : "", props.problems.length ? errorId : ""].filter(Boolean).join(" ") || undefined,
  };
  return (
    <div className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <label htmlFor={id}>{props.label}</label>
      {props.hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {props.hint}
        </p>
      ) : null}
      {props.multiline ? (
        <textarea {...shared} rows={2} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input {...shared} type="text" list={props.suggestions ? `${id}-suggestions` : undefined} onChange={(e) => props.onChange(e.target.value)} />
      )}
      {props.suggestions ? (
        <datalist id={`${id}-suggestions`}>
          {props.suggestions.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      ) : null}
      <FieldError id={errorId} problems={props.problems} />
    </div>
  );
}

/** A comma-separated list (tags, related notes). The text is split exactly where commas are, so typing is never rewritten. */
export function ListField(props: Common & { label: string; hint: string; value: string[]; onChange: (v: string[]) => void }) {
  return <TextField {...props} value={props.value.join(",")} onChange={(text) => props.onChange(text === "" ? [] : text.split(","))} />;
}

export function BoundariesField(props: Common & { value: string[]; onChange: (v: string[]) => void }) {
  const toggle = (b: Boundary, on: boolean) => props.onChange(on ? [...props.value.filter((x) => x !== b), b] : props.value.filter((x) => x !== b));
  return (
    <fieldset className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <legend>Boundaries</legend>
      <p className={styles.hint}>Hard limits on what the note claims; readers and agents treat them as such.</p>
      {BOUNDARIES.map((b) => (
        <label key={b} className={styles.check}>
          <input type="checkbox" checked={props.value.includes(b)} disabled={props.readOnly} onChange={(e) => toggle(b, e.target.checked)} onBlur={props.onBlur} />
          <span>
            <strong>{BOUNDARY_LABEL[b]}</strong> <span className={styles.hint}>{BOUNDARY_MEANING[b]}</span>
          </span>
        </label>
      ))}
      <FieldError id="field-boundaries-errors" problems={props.problems} />
    </fieldset>
  );
}

/** Core rank and label: set both to list the note under "Start with the architecture", clear both to leave it out. */
export function CoreFields(props: { rankProblems: Where[]; labelProblems: Where[]; readOnly: boolean; onBlur: () => void; value: { rank: number; label: string } | null; onChange: (v: { rank: number; label: string } | null) => void }) {
  const rank = props.value && Number.isFinite(props.value.rank) ? String(props.value.rank) : "";
  const label = props.value?.label ?? "";
  const change = (nextRank: string, nextLabel: string) =>
    props.onChange(nextRank.trim() === "" && nextLabel === "" ? null : { rank: nextRank.trim() === "" ? Number.NaN : Number(nextRank), label: nextLabel });
  return (
    <div className={styles.pair}>
      <div className={styles.field} data-invalid={props.rankProblems.length > 0 || undefined}>
        <label htmlFor="field-core-rank">Core rank</label>
        <input
          id="field-core-rank"
          type="number"
          min={1}
          max={99}
          value={rank}
          readOnly={props.readOnly}
          onBlur={props.onBlur}
          aria-describedby="field-core-hint"
          onChange={(e) => change(e.target.value, label)}
        />
        <FieldError id="field-core-rank-errors" problems={props.rankProblems} />
      </div>
      <div className={styles.field} data-invalid={props.labelProblems.length > 0 || undefined}>
        <label htmlFor="field-core-label">Core label</label>
        <input id="field-core-label" type="text" value={label} readOnly={props.readOnly} onBlur={props.onBlur} onChange={(e) => change(rank, e.target.value)} />
        <FieldError id="field-core-label-errors" problems={props.labelProblems} />
      </div>
      <p id="field-core-hint" className={styles.hint}>
        Optional: a rank (1 first) and a short label put the note under &ldquo;Start with the architecture&rdquo;.
      </p>
    </div>
  );
}
