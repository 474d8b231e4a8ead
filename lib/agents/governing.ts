import type { PublishedView } from "@/lib/content/published";
import { BOUNDARY_MEANING, STATUS_MEANING, type Note, type Status } from "@/lib/notes/schema";
import { componentMatch, parseAffectsEntry, pathMatch, type AffectsEntry } from "@/lib/rules/affects";
import { SECTION_ANCHORS } from "@/lib/web/urls";
import { limitFlags, limitsOf } from "./limits";
import type { GoverningDocument, GoverningNote } from "./schemas";
import type { AgentUrls } from "./urls";

/**
 * "Which decisions govern this change?": the published notes whose `affects` match the paths (or
 * components) asked about. Notes in force come first by status strength, then by how specific
 * their best match is; superseded and retracted notes are not in force and are listed apart, each
 * naming the note that replaced it. Every citation is pinned to the commit that last changed the
 * note (`?rev=`), so it keeps its text after main moves. Served by /agents/governing.json (GET and
 * POST of a diff), the MCP tool governing_notes and `npm run governing`.
 */

export const GOVERNING_LIMITS = { paths: 2_000, pathLength: 1_000, components: 100, diffBytes: 5_000_000 } as const;

export type GoverningQuery = { paths: string[]; components: string[] };

const STRENGTH: Partial<Record<Status, number>> = { "verified-structural": 3, "verified-checkpoint": 2, hypothesis: 1 };

type Parsed = { note: Note; entries: { text: string; entry: AffectsEntry }[] };

// Each note object's parsed entries (a note object is one blob: it never changes).
const parsedEntries = new WeakMap<Note, Parsed>();
function entriesOf(note: Note): Parsed {
  let p = parsedEntries.get(note);
  if (!p) parsedEntries.set(note, (p = { note, entries: note.affects.map((text) => ({ text, entry: parseAffectsEntry(text) })) }));
  return p;
}

/** A path as asked: "./src/x" and "/src/x" are "src/x"; null for one that cannot be a repository path. */
export function normalizePath(raw: string): string | null {
  const path = raw.trim().replace(/^\.?\/+/, "");
  if (!path || path.length > GOVERNING_LIMITS.pathLength || path.includes("\0")) return null;
  return path;
}

/** A query's size and shape, refused with a message that says what and where. */
export function checkQuery(query: GoverningQuery): string | null {
  if (!query.paths.length && !query.components.length)
    return "nothing to look up: give one or more path=src/file.ts (or component=name) parameters, or POST a unified diff as text/x-diff";
  if (query.paths.length > GOVERNING_LIMITS.paths) return `${query.paths.length} paths; at most ${GOVERNING_LIMITS.paths} in one question`;
  if (query.components.length > GOVERNING_LIMITS.components) return `${query.components.length} components; at most ${GOVERNING_LIMITS.components}`;
  return null;
}

export function governingNotes(
  view: Pick<PublishedView, "commit" | "notes" | "byId">,
  urls: AgentUrls,
  revisions: ReadonlyMap<string, { commit: string }>,
  query: GoverningQuery,
): GoverningDocument {
  const paths = [...new Set(query.paths)];
  const components = [...new Set(query.components.map((c) => c.trim()).filter(Boolean))];
  const found: { note: Note; matched: { path: string; entry: string }[]; specificity: number }[] = [];
  for (const note of view.notes) {
    if (!note.affects.length) continue;
    const matched: { path: string; entry: string }[] = [];
    let specificity = -1;
    for (const path of paths) {
      let best: { entry: string; score: number } | null = null;
      for (const { text, entry } of entriesOf(note).entries) {
        const score = pathMatch(entry, path);
        if (score !== null && (!best || score > best.score)) best = { entry: text, score };
      }
      if (best) {
        matched.push({ path, entry: best.entry });
        specificity = Math.max(specificity, best.score);
      }
    }
    for (const name of components) {
      const hit = entriesOf(note).entries.find(({ entry }) => componentMatch(entry, name));
      if (hit) {
        matched.push({ path: `component:${name}`, entry: hit.text });
        specificity = Math.max(specificity, 30_000);
      }
    }
    if (matched.length) found.push({ note, matched, specificity });
  }

  const inForce = found.filter((f) => STRENGTH[f.note.status] !== undefined);
  inForce.sort(
    (a, b) =>
      (STRENGTH[b.note.status] ?? 0) - (STRENGTH[a.note.status] ?? 0) ||
      b.specificity - a.specificity ||
      b.matched.length - a.matched.length ||
      a.note.id.localeCompare(b.note.id),
  );
  const listed = new Set(inForce.map((f) => f.note.id));
  const notes = inForce.map((f) => governingEntry(f.note, f.matched, view.commit, revisions, urls));
  const replaced = found
    .filter((f) => f.note.status === "superseded" || f.note.status === "retracted")
    .map((f) => {
      const successor = f.note.status === "superseded" ? inForceSuccessor(f.note, view.byId) : null;
      return {
        id: f.note.id,
        title: f.note.title,
        status: f.note.status as "superseded" | "retracted",
        matched: f.matched,
        superseded_by: successor,
        successor_listed: successor !== null && listed.has(successor),
      };
    });
  return { commit: view.commit, paths, components, needs_human_review: notes.some((n) => n.needs_human_review), count: notes.length, notes, replaced };
}

/** The published note in force at the end of a supersession chain (AFN-003 → AFN-010 → AFN-021), or null. */
function inForceSuccessor(note: Note, byId: ReadonlyMap<string, Note>): string | null {
  const seen = new Set([note.id]);
  let next = note.superseded_by ? byId.get(note.superseded_by) : undefined;
  while (next && next.status === "superseded" && next.superseded_by && !seen.has(next.superseded_by)) {
    seen.add(next.id);
    next = byId.get(next.superseded_by);
  }
  return next && STRENGTH[next.status] !== undefined ? next.id : null;
}

function governingEntry(
  note: Note,
  matched: { path: string; entry: string }[],
  commit: string,
  revisions: ReadonlyMap<string, { commit: string }>,
  urls: AgentUrls,
): GoverningNote {
  // Without a known last change (history not read yet), main's commit holds the same text.
  const revision = revisions.get(note.id)?.commit ?? commit;
  const pinned = urls.pinned(note.id, revision);
  return {
    id: note.id,
    title: note.title,
    status: note.status as GoverningNote["status"],
    status_meaning: STATUS_MEANING[note.status],
    boundaries: note.boundaries.map((b) => ({ boundary: b, meaning: BOUNDARY_MEANING[b] })),
    flags: limitFlags(note),
    limits: limitsOf(note),
    invariant: note.sections.invariant,
    claim_boundary: note.sections.claimBoundary,
    affects: note.affects,
    matched,
    needs_human_review: note.status === "verified-structural" || note.boundaries.includes("pinned-not-supported"),
    revision,
    urls: {
      live: urls.note(note.id),
      pinned,
      invariant: `${pinned}#${SECTION_ANCHORS.invariant}`,
      claim_boundary: `${pinned}#${SECTION_ANCHORS.claimBoundary}`,
      decision: `${pinned}#${SECTION_ANCHORS.decision}`,
      capsule_md: urls.capsule(note.id, "md"),
    },
  };
}

/** The answer as text: one block per note, for people, the CLI and MCP's text content. */
export function governingText(doc: GoverningDocument): string {
  if (!doc.notes.length && !doc.replaced.length) return `No published note governs ${describeAsked(doc)}.`;
  const lines: string[] = [];
  for (const n of doc.notes) {
    const limits = n.boundaries.map((b) => b.boundary).join(", ");
    lines.push(`${n.id} (${n.status}${limits ? `; ${limits}` : ""})${n.needs_human_review ? " [needs a human look]" : ""}: ${n.title}`);
    lines.push(`  matched: ${n.matched.map((m) => `${m.path} by ${m.entry}`).join("; ")}`);
    lines.push(`  invariant: ${oneLine(n.invariant) || "(none written)"}  ${n.urls.invariant}`);
    lines.push(`  claim boundary: ${oneLine(n.claim_boundary) || "(none written)"}  ${n.urls.claim_boundary}`);
  }
  for (const r of doc.replaced) {
    const instead = r.superseded_by ? `read ${r.superseded_by} instead${r.successor_listed ? " (listed above)" : ""}` : "no note replaces it";
    lines.push(`${r.id} (${r.status}, not in force): ${r.title}; ${instead}; matched ${r.matched.map((m) => m.path).join(", ")}`);
  }
  return lines.join("\n");
}

function describeAsked(doc: GoverningDocument): string {
  const asked = [...doc.paths, ...doc.components.map((c) => `component:${c}`)];
  return asked.length > 3 ? `these ${asked.length} paths` : asked.join(", ");
}

function oneLine(markdown: string): string {
  return markdown.replace(/\s+/g, " ").trim();
}
