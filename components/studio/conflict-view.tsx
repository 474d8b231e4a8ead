"use client";

import { useState } from "react";
import { SECTIONS } from "@/lib/notes/schema";
import type { NoteFields } from "@/lib/validations/note";
import { buttonClass } from "@/components/ui/button";
import styles from "./studio.module.css";

/**
 * Their version beside yours, field by field, after a stale save. Each differing field starts as
 * the side that changed it (theirs when only they changed it, yours when only you did, yours when
 * both did) and can be set to either side or edited by hand. Nothing is saved from here: the merged
 * version goes back into the editor, based on their revision, and yours stays in the browser until
 * a save succeeds.
 */

type Key = "title" | "summary" | "phase" | "tags" | "related" | "boundaries" | "core" | (typeof SECTIONS)[number]["key"];

const ROWS: { key: Key; label: string; text: boolean }[] = [
  { key: "title", label: "Title", text: true },
  { key: "summary", label: "Summary", text: true },
  { key: "phase", label: "Phase", text: true },
  { key: "tags", label: "Tags", text: false },
  { key: "related", label: "Related notes", text: false },
  { key: "boundaries", label: "Boundaries", text: false },
  { key: "core", label: "Core", text: false },
  ...SECTIONS.map((s) => ({ key: s.key, label: s.heading, text: true })),
];

type Value = string | string[] | { rank: number; label: string } | null;

const get = (f: NoteFields, key: Key): Value =>
  key in f.sections ? f.sections[key as keyof NoteFields["sections"]] : (f[key as keyof Omit<NoteFields, "sections">] as Value);
const show = (v: Value) =>
  v === null
    ? "(none)"
    : typeof v === "string"
      ? v
      : Array.isArray(v)
        ? v
            .map((x) => x.trim())
            .filter(Boolean)
            .join(", ")
        : `rank ${v.rank}: ${v.label}`;
const same = (a: Value, b: Value) => JSON.stringify(a) === JSON.stringify(b);

function set(f: NoteFields, key: Key, v: Value): NoteFields {
  if (key in f.sections) return { ...f, sections: { ...f.sections, [key]: v as string } };
  return { ...f, [key]: v };
}

export type ConflictSides = {
  theirs: NoteFields;
  yours: NoteFields;
  base: NoteFields | null;
  /** Who wrote their version, when. */
  by: string;
};

export function ConflictView({ sides, onResolve, onCancel }: { sides: ConflictSides; onResolve: (merged: NoteFields) => void; onCancel: () => void }) {
  const differing = ROWS.filter((r) => !same(get(sides.yours, r.key), get(sides.theirs, r.key)));
  const [merged, setMerged] = useState<NoteFields>(() => {
    let m = sides.yours;
    for (const r of differing) {
      const base = sides.base ? get(sides.base, r.key) : undefined;
      // Only they changed it: take theirs. Otherwise keep yours (only you, or both, changed it).
      if (base !== undefined && same(get(sides.yours, r.key), base)) m = set(m, r.key, get(sides.theirs, r.key));
    }
    return m;
  });

  return (
    <section className={styles.conflict} aria-labelledby="conflict-heading">
      <h2 id="conflict-heading">This note changed while you were editing</h2>
      <p>
        {sides.by} saved a newer version. Nothing of yours was saved and nothing is lost: for each field that differs, choose yours, theirs, or edit the merged
        text, then continue in the editor and save.
      </p>
      {differing.length === 0 ? <p>Both versions have the same fields; continuing keeps them.</p> : null}
      {differing.map((r) => {
        const mine = get(sides.yours, r.key);
        const theirs = get(sides.theirs, r.key);
        const current = get(merged, r.key);
        const id = `merge-${r.key}`;
        return (
          <fieldset key={r.key} className={styles.conflictRow} data-field={r.key}>
            <legend>{r.label}</legend>
            <div className={styles.sides}>
              <figure>
                <figcaption>Yours</figcaption>
                <pre aria-label={`Your ${r.label}`}>{show(mine)}</pre>
              </figure>
              <figure>
                <figcaption>Theirs</figcaption>
                <pre aria-label={`Their ${r.label}`}>{show(theirs)}</pre>
              </figure>
            </div>
            <div className={styles.actions}>
              <button type="button" aria-pressed={same(current, mine)} onClick={() => setMerged((m) => set(m, r.key, mine))}>
                Take mine
              </button>
              <button type="button" aria-pressed={same(current, theirs)} onClick={() => setMerged((m) => set(m, r.key, theirs))}>
                Take theirs
              </button>
            </div>
            {r.text ? (
              <>
                <label htmlFor={id}>Merged {r.label}</label>
                <textarea
                  id={id}
                  rows={Math.min(12, Math.max(2, String(current).split("\n").length + 1))}
                  value={String(current ?? "")}
                  onChange={(e) => setMerged((m) => set(m, r.key, e.target.value))}
                />
              </>
            ) : (
              <p className={styles.hint}>
                Merged: <span aria-label={`Merged ${r.label}`}>{show(current)}</span> (edit it further in the editor)
              </p>
            )}
          </fieldset>
        );
      })}
      <div className={styles.actions}>
        <button type="button" className={buttonClass("primary")} onClick={() => onResolve(merged)}>
          Continue with the merged version
        </button>
        <button type="button" onClick={onCancel}>
          Back to my version
        </button>
      </div>
    </section>
  );
}
