"use client";

import { useState } from "react";
import { BOUNDARIES, BOUNDARY_LABEL, BOUNDARY_MEANING, type Boundary } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import type { Where } from "@/lib/rules/api-errors";
import { FieldError } from "./field-error";
import styles from "./studio.module.css";

/** The note's front-matter fields, each labelled with its name and showing its own problems. */

type Common = { problems: Where[]; readOnly: boolean; onBlur: () => void };

const idOf = (label: string) => `field-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

export function TextField(
  props: Common & { label: string; hint?: string; value: string; multiline?: boolean; suggestions?: string[]; onChange: (v: string) => void },
) {
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

/**
 * Phase: one of the phases on main, chosen, not typed. Each is shown by its title (a renamed
 * phase's, `titles`) and sends the name notes carry. A value that is not one of them (a file
 * edited outside the studio) stays selectable and says so; the save's rules judge it.
 */
export function PhaseField(props: Common & { value: string; phases: string[]; titles: PhaseTitles; onChange: (v: string) => void }) {
  const id = "field-phase";
  const errorId = `${id}-errors`;
  const known = props.value === "" || props.phases.includes(props.value);
  return (
    <div className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <label htmlFor={id}>Phase</label>
      <select
        id={id}
        value={props.value}
        disabled={props.readOnly}
        onBlur={props.onBlur}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.problems.length > 0 || undefined}
        aria-describedby={props.problems.length ? errorId : undefined}
      >
        <option value="">Choose a phase…</option>
        {props.phases.map((p) => (
          <option key={p} value={p}>
            Phase {shownPhase(props.titles, p)}
          </option>
        ))}
        {known ? null : <option value={props.value}>{props.value} (not a phase on main)</option>}
      </select>
      <FieldError id={errorId} problems={props.problems} />
    </div>
  );
}

/**
 * A list as chips (tags, related notes): type and press Enter or a comma to add, suggestions from
 * what exists, a button to remove each. Leaving the input keeps what was typed as chips too, so
 * nothing typed is lost. Enter here never submits the editor's form.
 */
export function ChipsField(
  props: Common & {
    label: string;
    hint: string;
    value: string[];
    suggestions: { value: string; label?: string }[];
    /** What a typed or chosen text becomes (a note id from "AFN-011 Title"), or null to keep it as typed. */
    normalize?: (text: string) => string | null;
    /** How a chip reads ("AFN-011 Paged KV cache"). */
    display?: (item: string) => string;
    /** Whether a comma ends an item (tags); off for globs, where `{a,b}` is one item. */
    commaSeparates?: boolean;
    onChange: (v: string[]) => void;
  },
) {
  const commas = props.commaSeparates ?? true;
  const [text, setText] = useState("");
  const id = idOf(props.label);
  const errorId = `${id}-errors`;
  const display = props.display ?? ((x: string) => x);
  const items = props.value.filter((x) => x.trim() !== "");
  const add = (raw: string) => {
    const added = (commas ? raw.split(",") : [raw])
      .map((x) => x.trim())
      .filter(Boolean)
      .map((x) => props.normalize?.(x) ?? x);
    const next = [...items];
    for (const x of added) if (!next.includes(x)) next.push(x);
    if (next.length !== items.length) props.onChange(next);
    setText("");
  };
  const offered = props.suggestions.filter((s) => !items.includes(s.value));
  return (
    <div className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <label htmlFor={id}>{props.label}</label>
      <p id={`${id}-hint`} className={styles.hint}>
        {props.hint}
      </p>
      <div className={styles.chips}>
        {items.length ? (
          <ul aria-label={`${props.label} chosen`}>
            {items.map((x) => (
              <li key={x} className={styles.chip}>
                <span>{display(x)}</span>
                {props.readOnly ? null : (
                  <button type="button" aria-label={`Remove ${display(x)}`} onClick={() => props.onChange(items.filter((y) => y !== x))}>
                    <span aria-hidden="true">×</span>
                  </button>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        {props.readOnly ? null : (
          <input
            id={id}
            type="text"
            value={text}
            list={`${id}-suggestions`}
            autoComplete="off"
            aria-invalid={props.problems.length > 0 || undefined}
            aria-describedby={[`${id}-hint`, props.problems.length ? errorId : ""].filter(Boolean).join(" ")}
            onChange={(e) => {
              const v = e.target.value;
              // A suggestion picked from the list arrives whole, not as typing: take it at once.
              const native = e.nativeEvent;
              const picked = !(native instanceof InputEvent) || native.inputType === "insertReplacementText";
              if (picked && props.suggestions.some((s) => s.value === v)) add(v);
              else if (commas && v.endsWith(",")) add(v);
              else setText(v);
            }}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                add(text);
              } else if (e.key === "Backspace" && text === "" && items.length) {
                props.onChange(items.slice(0, -1));
              }
            }}
            onBlur={() => {
              if (text.trim()) add(text);
              props.onBlur();
            }}
          />
        )}
      </div>
      <datalist id={`${id}-suggestions`}>
        {offered.map((s) => (
          <option key={s.value} value={s.value}>
            {s.label}
          </option>
        ))}
      </datalist>
      <FieldError id={errorId} problems={props.problems} />
    </div>
  );
}

export function BoundariesField(props: Common & { value: string[]; onChange: (v: string[]) => void }) {
  const toggle = (b: Boundary, on: boolean) => props.onChange(on ? [...props.value.filter((x) => x !== b), b] : props.value.filter((x) => x !== b));
  return (
    <fieldset className={styles.field} data-invalid={props.problems.length > 0 || undefined}>
      <legend>Boundaries</legend>
      <p className={styles.hint}>Hard limits on what the note claims; readers and agents treat them as such.</p>
      {BOUNDARIES.map((b) => (
        <label key={b} className={styles.check}>
          <input
            type="checkbox"
            checked={props.value.includes(b)}
            disabled={props.readOnly}
            onChange={(e) => toggle(b, e.target.checked)}
            onBlur={props.onBlur}
          />
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
export function CoreFields(props: {
  rankProblems: Where[];
  labelProblems: Where[];
  readOnly: boolean;
  onBlur: () => void;
  value: { rank: number; label: string } | null;
  onChange: (v: { rank: number; label: string } | null) => void;
}) {
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
