import { serializeNote } from "@/lib/notes/markdown";

/**
 * The benchmarks' notes (bench:commit, bench:read): valid, about 2 kB each, all different, from a
 * seeded generator, so every run builds the same archive.
 */

export const idOf = (i: number) => `AFN-${String(i + 1).padStart(5, "0")}`;

// Notes as varied as real ones (about 2 kB, different words, tags and links), from a seeded
// generator: near-identical files would let `git gc` delta-compress them unrealistically well.
const WORDS = (
  "attention sparse mask backend key query matrix cache state chunk transactional publish residual " +
  "logits routing expert prefetch loader checksum page index codec storage admission metal graph " +
  "allocation tensor identity ownership policy symbol checkpoint boundary evidence invariant decode " +
  "prefill replay trace predictor pipeline deadline scheduler stream lookahead component verify"
).split(" ");
const TAGS = ["sparse attention", "Metal", "storage", "admission", "MoE routing", "DFlash 2", "Qwen4Exp", "SSD streaming", "prefill replay", "online softmax"];

export function generator(seed: number) {
  let x = seed >>> 0 || 1;
  return (n: number) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) % n;
  };
}

/**
 * Two notes `i` links to, among those before it. They must exist in bench:read's archive: below 21,
 * the seed's own (AFN-001 … AFN-021), since main's commits are judged (a related id that names no
 * note is refused, and nothing is served).
 */
export function relatedOf(i: number, rand: (n: number) => number): string[] {
  return [...new Set([rand(i + 1), rand(i + 1)].filter((r) => r !== i).map((r) => (r < 21 ? `AFN-${String(r + 1).padStart(3, "0")}` : idOf(r))))];
}

// The seed's phases (content/phases/): main's commits are judged, and a note naming a phase main
// does not have is refused, so a generated note takes one of these.
const PHASES = [
  "0–3",
  "2",
  "3",
  "4",
  "5",
  "6 architecture",
  "8–11 performance architecture",
  "agent operations",
  "DFlash2 compatibility boundary",
  "Qwen4Exp predictive I/O training",
];

/** A phase of the seed for a generated note (one draw of `rand`, as the notes have always taken). */
export const phaseOf = (rand: (n: number) => number) => PHASES[rand(11) % PHASES.length]!;

export function benchNote(i: number, summary: string): string {
  const rand = generator(i + 1);
  const sentence = () => {
    const words = Array.from({ length: 8 + rand(10) }, () => WORDS[rand(WORDS.length)]!);
    return `${words.join(" ")}.`.replace(/^./, (c) => c.toUpperCase());
  };
  const paragraph = () => Array.from({ length: 2 + rand(4) }, sentence).join(" ");
  const section = (n: number) => Array.from({ length: n }, paragraph).join("\n\n");
  const tags = [...new Set(Array.from({ length: 2 + rand(4) }, () => TAGS[rand(TAGS.length)]!))];
  const related = relatedOf(i, rand);
  return serializeNote({
    id: idOf(i),
    title: sentence()
      .slice(0, 120)
      .replace(/[ .]+$/, ""),
    summary,
    status: rand(3) === 0 ? "hypothesis" : "verified-checkpoint",
    phase: phaseOf(rand),
    tags,
    order: i,
    related,
    sections: {
      decision: section(1),
      invariant: section(1),
      rejectedShortcut: section(1),
      evidence: Array.from({ length: 2 + rand(4) }, () => `- ${sentence()}`).join("\n"),
      claimBoundary: section(1),
      notes: rand(2) ? section(1) : "",
    },
  });
}
