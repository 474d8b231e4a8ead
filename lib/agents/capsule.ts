import type { PublishedView } from "@/lib/content/published";
import { BOUNDARY_MEANING, STATUS_MEANING, type Note } from "@/lib/notes/schema";
import { SECTION_ANCHORS } from "@/lib/web/urls";
import { flagsLine, limitFlags, limitsOf } from "./limits";
import { markdownToLine } from "@/lib/render/plain-text";
import type { Capsule } from "./schemas";
import { clipToTokens, tokens } from "./tokens";
import type { AgentUrls } from "./urls";

/**
 * The retrieval capsule: step two of the protocol. What a note decides, what must stay true, the
 * shortcut it rejects and how far its claim goes, with its hard limits spelled out, in at most
 * CAPSULE_BUDGET tokens of Markdown. When the whole text does not fit, the longest field is
 * clipped first (marked "…"), and the capsule says the full note has it whole.
 */

export const CAPSULE_BUDGET = 350;
/** No field is clipped below this many tokens: past it, clipping destroys more than it saves. */
export const FIELD_FLOOR = 16;
/** Related notes listed in a capsule; the full note lists every one. */
export const RELATED_SHOWN = 5;

const CLIPPABLE = ["decision", "claim_boundary", "rejected_shortcut", "invariant", "evidence"] as const;
type Clippable = (typeof CLIPPABLE)[number];

type CapsuleView = Pick<PublishedView, "commit" | "byId">;

export function buildCapsule(note: Note, view: CapsuleView, urls: AgentUrls): Capsule {
  const whole: Record<Clippable, string> = {
    decision: markdownToLine(note.sections.decision),
    claim_boundary: markdownToLine(note.sections.claimBoundary),
    rejected_shortcut: markdownToLine(note.sections.rejectedShortcut),
    invariant: markdownToLine(note.sections.invariant),
    evidence: markdownToLine(note.sections.evidence),
  };
  // No field can use more than the whole budget; start from there, not from a long section's size.
  const caps = Object.fromEntries(CLIPPABLE.map((k) => [k, Math.min(CAPSULE_BUDGET, tokens(whole[k]))])) as Record<Clippable, number>;
  for (;;) {
    const capsule = assemble(note, view, urls, whole, caps);
    const over = tokens(capsuleMarkdown(capsule)) - CAPSULE_BUDGET;
    if (over <= 0) return capsule;
    // Clip the longest field that is still above the floor; stop when none is.
    const longest = CLIPPABLE.filter((k) => caps[k] > FIELD_FLOOR).sort((a, b) => caps[b] - caps[a])[0];
    if (!longest) return capsule;
    // In one step, cut no further than the next longest field, so the cut is shared among long fields.
    const second = Math.max(...CLIPPABLE.filter((k) => k !== longest).map((k) => caps[k]));
    const cut = Math.max(caps[longest] - Math.max(4, over), Math.min(second, caps[longest] - 4));
    caps[longest] = Math.max(FIELD_FLOOR, cut);
  }
}

function assemble(note: Note, view: CapsuleView, urls: AgentUrls, whole: Record<Clippable, string>, caps: Record<Clippable, number>): Capsule {
  const field = (k: Clippable) => clipToTokens(whole[k], caps[k]);
  const clipped = CLIPPABLE.filter((k) => field(k) !== whole[k]);
  // Only published notes may be named: a related draft stays invisible.
  const related = note.related.flatMap((id) => {
    const r = view.byId.get(id);
    return r ? [{ id, title: r.title, status: r.status as Capsule["status"], capsule_url: urls.capsule(id, "md") }] : [];
  });
  return {
    commit: view.commit,
    id: note.id,
    title: note.title,
    status: note.status as Capsule["status"],
    status_meaning: STATUS_MEANING[note.status],
    boundaries: note.boundaries.map((b) => ({ boundary: b, meaning: BOUNDARY_MEANING[b] })),
    flags: limitFlags(note),
    limits: limitsOf(note),
    decision: field("decision"),
    invariant: field("invariant"),
    rejected_shortcut: field("rejected_shortcut"),
    claim_boundary: field("claim_boundary"),
    // Each section's stable anchor on the note page (SECTION_ANCHORS, components/note-section.tsx).
    evidence: { summary: field("evidence"), url: `${urls.note(note.id)}#${SECTION_ANCHORS.evidence}` },
    related: related.slice(0, RELATED_SHOWN),
    affects: note.affects,
    superseded_by: note.superseded_by && view.byId.has(note.superseded_by) ? note.superseded_by : null,
    open_full_note: { when: whenToOpen(note, clipped, related.length), url: urls.noteAs(note.id, "md") },
    cite: { live: urls.note(note.id), pinned: urls.pinned(note.id, view.commit) },
  };
}

const FIELD_NAME: Record<Clippable, string> = {
  decision: "Decision",
  claim_boundary: "Claim boundary",
  rejected_shortcut: "Rejected shortcut",
  invariant: "Invariant",
  evidence: "Evidence",
};

function whenToOpen(note: Note, clipped: readonly Clippable[], relatedCount: number): string {
  const parts: string[] = [];
  if (note.status === "retracted") {
    parts.push(`Open the full note only to learn why it was withdrawn${note.retraction_reason ? ` (${note.retraction_reason})` : ""}; do not apply it.`);
  } else if (note.status === "superseded") {
    parts.push(`Read ${note.superseded_by ?? "the note that supersedes it"} instead; open this one only for its history.`);
  } else if (note.status === "hypothesis") {
    parts.push("Open the full note when you plan to test this hypothesis or build on its proposal; it is not a result.");
  } else {
    parts.push("Open the full note when this decision fits your task and you need its evidence or its notes.");
  }
  if (clipped.length) parts.push(`It has ${clipped.map((k) => FIELD_NAME[k]).join(", ")} whole (clipped here, marked …).`);
  if (relatedCount > RELATED_SHOWN) parts.push(`It lists all ${relatedCount} related notes.`);
  return parts.join(" ");
}

export function capsuleMarkdown(c: Capsule): string {
  const limitLines = c.limits
    // A hypothesis's limit is its status meaning, already on the status line.
    .filter((l) => l.flag !== "hypothesis")
    .map((l) => `Boundary: ${l.flag}. ${l.meaning}`);
  // IDs only: the compact index already gave the agent their titles.
  const related = c.related.map((r) => (r.status.startsWith("verified") ? r.id : `${r.id} (${r.status})`));
  const text = [
    `# ${c.id}: ${c.title}`,
    "",
    `Status: ${c.status}. ${c.status_meaning}`,
    ...limitLines,
    flagsLine(c.flags),
    ...(c.superseded_by ? [`Superseded by: ${c.superseded_by}`] : []),
    ...(c.affects.length ? [governsLine(c.affects)] : []),
    "",
    `Decision: ${c.decision || "(none written)"}`,
    `Invariant: ${c.invariant || "(none written)"}`,
    `Rejected shortcut: ${c.rejected_shortcut || "(none written)"}`,
    `Claim boundary: ${c.claim_boundary || "(none written)"}`,
    `Evidence: ${c.evidence.summary || "(none written)"}`,
    ...(related.length ? [`Related: ${related.join(", ")}.`] : []),
    "",
    `Full note: ${c.open_full_note.url}. ${c.open_full_note.when}`,
    "",
  ].join("\n");
  // The pinned citation when it fits the budget (a capsule at the schema's limits has no room for it; its JSON always has it).
  const cite = `Cite: ${c.cite.pinned}\n`;
  return tokens(text) + tokens(cite) <= CAPSULE_BUDGET ? `${text}${cite}` : text;
}

/** What the note governs, at most AFFECTS_SHOWN entries (the full note lists all of them). */
export const AFFECTS_SHOWN = 5;
function governsLine(affects: readonly string[]): string {
  const shown = affects.slice(0, AFFECTS_SHOWN).map((a) => (a.length > 80 ? `${a.slice(0, 79)}…` : a));
  const more = affects.length - shown.length;
  return `Governs: ${shown.join(", ")}${more > 0 ? ` (and ${more} more in the full note)` : ""}`;
}
