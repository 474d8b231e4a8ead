import { SECTIONS, type Note } from "@/lib/notes/schema";
import { isVerifiedStatus } from "./phase-closeout";

/**
 * "Verified" is a promise about the text: what a verified note says is what a second person
 * checked. So a published change to a verified note needs an approval of that exact revision,
 * like a promotion (docs/decisions/verified-means-reviewed.md). This module says which changes are
 * substance (they need one) and which are editorial (they do not). Pure.
 *
 * Editorial: where the note is filed and how it is found (tags, related notes, its place among the
 * core decisions, its editorial order). Nothing a reader or an agent takes as the claim. What a
 * verified note governs (`affects`) is substance: agents ask which notes govern a diff and act on
 * the answer, so narrowing it would take a checked decision off code without a second person.
 * Status, superseded_by and retraction_reason move with a status change, which the status machine
 * judges on its own.
 */

export const EDITORIAL_FIELDS = ["tags", "related", "core", "order"] as const;

type Field = { key: string; label: string; read: (n: Note) => unknown };

const SUBSTANCE: readonly Field[] = [
  { key: "title", label: "Title", read: (n) => n.title },
  { key: "summary", label: "Summary", read: (n) => n.summary },
  ...SECTIONS.map((s) => ({ key: `sections.${s.key}`, label: s.heading, read: (n: Note) => n.sections[s.key] })),
  { key: "boundaries", label: "Boundaries", read: (n) => [...n.boundaries].sort() },
  { key: "phase", label: "Phase", read: (n) => n.phase },
  { key: "provenance", label: "Provenance", read: (n) => n.provenance ?? null },
  { key: "affects", label: "Governs", read: (n) => [...(n.affects ?? [])].sort() },
];

export type SubstanceChange = { field: string; label: string };

/** The fields of substance that differ between two versions of a note, in the note's own order. */
export function substanceChanges(before: Note, after: Note): SubstanceChange[] {
  return SUBSTANCE.filter((f) => JSON.stringify(f.read(before)) !== JSON.stringify(f.read(after))).map(({ key, label }) => ({ field: key, label }));
}

/**
 * What a landing changes of a verified note that needs approving as a change (not as a promotion:
 * a move to, or between, verified statuses is the status machine's): [] when nothing does. The one
 * test the acceptance function and the studio's publish panel both apply.
 */
export function verifiedChanges(onMain: Note, after: Note): SubstanceChange[] {
  if (!isVerifiedStatus(onMain.status) || (isVerifiedStatus(after.status) && onMain.status !== after.status)) return [];
  return substanceChanges(onMain, after);
}

/** "Decision", "Decision and Evidence", "Title, Decision and Evidence". */
export function listOfLabels(changes: readonly SubstanceChange[]): string {
  const labels = changes.map((c) => c.label);
  if (labels.length <= 1) return labels.join("");
  return `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}
