import { BOUNDARY_MEANING, STATUS_MEANING, type Note } from "@/lib/notes/schema";

/**
 * The hard limits an agent must respect, as flags a program can test and sentences a model can
 * read. Every agent format carries both, from here, so no format can drop one.
 */

export type LimitFlags = {
  /** Proposed, not verified: a plan to test, never a result. */
  hypothesis: boolean;
  /** Proves structure only: no numerical quality, codec or performance claim. */
  structural_only: boolean;
  /** Works against a pinned reference only: not a supported product path. */
  pinned_not_supported: boolean;
};

/** One hard limit that applies to a note: its name as written in the note, and what it forbids. */
export type Limit = { flag: "hypothesis" | "structural-only" | "pinned-not-supported"; meaning: string };

export function limitFlags(note: Pick<Note, "status" | "boundaries">): LimitFlags {
  return {
    hypothesis: note.status === "hypothesis",
    structural_only: note.boundaries.includes("structural-only"),
    pinned_not_supported: note.boundaries.includes("pinned-not-supported"),
  };
}

/** The limits that apply to this note, hypothesis first, then its boundaries in the note's order. */
export function limitsOf(note: Pick<Note, "status" | "boundaries">): Limit[] {
  const out: Limit[] = [];
  if (note.status === "hypothesis") out.push({ flag: "hypothesis", meaning: STATUS_MEANING.hypothesis });
  for (const b of note.boundaries) out.push({ flag: b, meaning: BOUNDARY_MEANING[b] });
  return out;
}

/** Every limit an agent can meet, with its meaning: the legend of the index, llms.txt and the guide. */
export const LIMIT_LEGEND: readonly Limit[] = [
  { flag: "hypothesis", meaning: STATUS_MEANING.hypothesis },
  { flag: "structural-only", meaning: BOUNDARY_MEANING["structural-only"] },
  { flag: "pinned-not-supported", meaning: BOUNDARY_MEANING["pinned-not-supported"] },
];

/** The three flags as one line of text, each named as the notes write it. */
export function flagsLine(f: LimitFlags): string {
  const yes = (b: boolean) => (b ? "yes" : "no");
  return `Flags: hypothesis ${yes(f.hypothesis)}, structural-only ${yes(f.structural_only)}, pinned-not-supported ${yes(f.pinned_not_supported)}.`;
}
