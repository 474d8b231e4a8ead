import type { FieldDiff } from "@/lib/diff/sections";
import { DiffView } from "@/components/diff-view";
import styles from "./review.module.css";

/**
 * What changed in one section (or the note's other fields) against the comparison base, under the
 * text the public will read: open by default, since the changes are what a reviewer is there for,
 * and foldable once read. The marks are the history page's (DiffView): added text underlined on
 * green, removed text struck through on red, each announced to a screen reader.
 */
export function SectionChanges({ diffs, heading, baseLabel }: { diffs: FieldDiff[]; heading: string; baseLabel: string }) {
  const { added, removed } = count(diffs);
  return (
    <details className={styles.changes} open data-changes data-single={diffs.length === 1 || undefined}>
      <summary>
        <span className={styles.changeFlag}>Changed</span> {heading} since {baseLabel}
        <span className={styles.counts}>
          {" "}
          · <span aria-label={`${added} words added`}>+{added}</span> <span aria-label={`${removed} words removed`}>−{removed}</span>
        </span>
      </summary>
      <DiffView diffs={diffs} />
    </details>
  );
}

/** Words added and removed, the counts a reviewer weighs a change by (list items count as one). */
function count(diffs: FieldDiff[]) {
  let added = 0;
  let removed = 0;
  for (const d of diffs) {
    for (const p of d.parts) {
      const n = d.list ? 1 : p.text.split(/\s+/).filter(Boolean).length;
      if (p.kind === "added") added += n;
      if (p.kind === "removed") removed += n;
    }
  }
  return { added, removed };
}
