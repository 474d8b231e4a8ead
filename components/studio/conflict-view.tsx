"use client";

import { useState } from "react";
import { diffArrays, diffWordsWithSpace } from "diff";
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

/**
 * One side of a field with what only this side has marked (words of text, items of a list), so the
 * difference is seen, not searched for. The text itself is unchanged: marks only wrap it.
 */
function Marked({ value, other, label }: { value: Value; other: Value; label: string }) {
  const parts = markedParts(value, other);
  return <pre aria-label={label}>{parts.map((p, i) => (p.only && p.text.trim() ? <mark key={i}>{p.text}</mark> : p.text))}</pre>;
}

function markedParts(value: Value, other: Value): { text: string; only: boolean }[] {
  if (Array.isArray(value) && Array.isArray(other)) {
    const clean = (list: string[]) => list.map((x) => x.trim()).filter(Boolean);
    const items = diffArrays(clean(other), clean(value)).flatMap((c) => (c.removed ? [] : c.value.map((text) => ({ text, only: Boolean(c.added) }))));
    return items.flatMap((p, i) => (i === 0 ? [p] : [{ text: ", ", only: false }, p]));
  }
  if (typeof value !== "string" || typeof other !== "string") return [{ text: show(value), only: !same(value, other) }];
  // Word diffs of very long, very different text give up (undefined) rather than hold the tab.
  const changes = diffWordsWithSpace(other, value, { timeout: 100 });
  if (!changes) return [{ text: value, only: true }];
  return changes.filter((c) => !c.removed).map((c) => ({ text: c.value, only: Boolean(c.added) }));
}

export function ConflictView({
  sides,
  me,
  onResolve,
  onCancel,
}: {
  sides: ConflictSides;
  /** The signed-in account (as commits name their author): its own save from another tab is said as such. */
  me: string;
  onResolve: (merged: NoteFields) => void;
  onCancel: () => void;
}) {
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
        {sides.by === me ? "You saved a newer version in another tab or window." : `${sides.by} saved a newer version.`} Nothing of this tab was saved and
        nothing is lost: for each field that differs (the differences are marked), choose this tab&apos;s version, the saved one, or edit the merged text, then
        continue in the editor and save.
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
                <Marked value={mine} other={theirs} label={`Your ${r.label}`} />
              </figure>
              <figure>
                <figcaption>{sides.by === me ? "Saved in your other tab" : "Theirs"}</figcaption>
                <Marked value={theirs} other={mine} label={`Their ${r.label}`} />
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
