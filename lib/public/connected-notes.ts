import type { PublishedView } from "@/lib/content/published";
import type { Note } from "@/lib/notes/schema";

/**
 * How many notes a note page's "Referenced by" lists. A core decision can be cited by thousands of
 * notes (on bench:read's realistic corpus of 10,000, AFN-016's page was 493 KB of such links). The
 * rest are a search for its id away, and the note's JSON (`backlinks`) lists them all.
 */
export const REFERENCES_SHOWN = 50;

export type ConnectedNotes = {
  /** The notes its `related` names, in that order. */
  related: Note[];
  /** Every published note that relates to it or mentions it. */
  linkingHere: ReadonlySet<string>;
  /** Those not already under Related notes, at most `shown` of them. */
  referencedBy: Note[];
  /** How many more refer to it than `referencedBy` lists. */
  moreReferences: number;
  /** How many of the related notes refer back. */
  mutual: number;
};

/** A note page's "Related notes" and "Referenced by": a related note that also refers back is listed once, under Related notes. */
export function connectedNotes(view: Pick<PublishedView, "byId" | "backlinks">, note: Note, shown = REFERENCES_SHOWN): ConnectedNotes {
  const related = note.related.flatMap((id) => view.byId.get(id) ?? []);
  const linkingHere = new Set(view.backlinks.get(note.id) ?? []);
  const referencing = [...linkingHere].filter((id) => !note.related.includes(id)).flatMap((id) => view.byId.get(id) ?? []);
  return {
    related,
    linkingHere,
    referencedBy: referencing.slice(0, shown),
    moreReferences: Math.max(0, referencing.length - shown),
    mutual: related.filter((n) => linkingHere.has(n.id)).length,
  };
}
