import { z } from "zod";
import { fenceStep } from "./fences";
import { reservedHeadingMessage, reservedHeadings } from "./section-headings";

/**
 * The note: one decision record (AFN-NNN). This module is the single definition of what a valid
 * note is; the studio form, the API, the CLI checker and the agent schemas all derive from it.
 */

export const STATUSES = ["draft", "hypothesis", "verified-checkpoint", "verified-structural", "superseded", "retracted"] as const;
export type Status = (typeof STATUSES)[number];

export const BOUNDARIES = ["structural-only", "pinned-not-supported"] as const;
export type Boundary = (typeof BOUNDARIES)[number];

/** Section keys in their canonical order, with the level-2 heading each one is written under. */
export const SECTIONS = [
  { key: "decision", heading: "Decision" },
  { key: "invariant", heading: "Invariant" },
  { key: "rejectedShortcut", heading: "Rejected shortcut" },
  { key: "evidence", heading: "Evidence" },
  { key: "claimBoundary", heading: "Claim boundary" },
  { key: "notes", heading: "Notes" },
] as const;
export type SectionKey = (typeof SECTIONS)[number]["key"];

export const NOTE_ID = /^[A-Z][A-Z0-9]*-\d{3,}$/;
// Made once: `localeCompare` with a locale or options builds a collator per call (30× slower over 10,000 ids).
const ID_ORDER = new Intl.Collator("en", { numeric: true });
/** Note ids in reading order, their numbers compared as numbers (AFN-999 before AFN-1000). */
export const compareIds = (a: string, b: string): number => ID_ORDER.compare(a, b);

// Control characters other than tab and newline cannot survive every format we emit
// (YAML, JSON, Atom, HTML) unchanged, and lone surrogates cannot be written as UTF-8 at all.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function text(what: string, max: number, normalize: (s: string) => string = (s) => s) {
  return z
    .string()
    .overwrite(normalize)
    .max(max, `${what} is longer than ${max} characters`)
    .refine((s) => s.isWellFormed(), `${what} contains a broken Unicode character`)
    .refine((s) => !CONTROL.test(s), `${what} contains a control character`);
}

function line(what: string, max: number) {
  return text(what, max)
    .refine((s) => !/[\r\n]/.test(s), `${what} must be a single line`)
    .refine((s) => s === s.trim(), `${what} has leading or trailing spaces`);
}

export const noteIdSchema = z.string().regex(NOTE_ID, "expected an ID like AFN-016");

/** Section text as stored: no leading or trailing blank lines, no trailing whitespace at the end. */
export function normalizeSection(s: string): string {
  return s
    .replace(/\r\n?/g, "\n")
    .replace(/^(?:[ \t]*\n)+/, "")
    .replace(/\s+$/, "");
}

/**
 * Section text: Markdown. Level-1 and level-2 headings are reserved for the note's own title and
 * sections, in every form Markdown has (`## …`, `# …`, a line underlined with --- or ===; see
 * ./section-headings.ts). The error names the line within the section (`params.line`).
 */
export function sectionSchema(heading: string) {
  return text(heading, 100_000, normalizeSection)
    .superRefine((s, ctx) => {
      const atx = scanSection(s).reservedHeading;
      const quiet = reservedHeadings(s)[0];
      if (atx !== null && (!quiet || atx <= quiet.line)) {
        const message = `${heading} contains a level-2 heading on line ${atx} ("## …"); use ### for headings inside a section`;
        ctx.addIssue({ code: "custom", message, params: { line: atx } });
      } else if (quiet) {
        ctx.addIssue({ code: "custom", message: reservedHeadingMessage(heading, quiet), params: { line: quiet.line } });
      }
    })
    .refine((s) => scanSection(s).unclosedFence === null, {
      message: `${heading} has a code block (\`\`\` or ~~~) that is never closed`,
    });
}

/** 1-based lines (within the section) of the first reserved heading and of an unclosed fence. */
export function scanSection(markdown: string): { reservedHeading: number | null; unclosedFence: number | null } {
  let fence: string | null = null;
  let opened = 0;
  let reservedHeading: number | null = null;
  const lines = markdown.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? "";
    const step = fenceStep(fence, l);
    if (step.isFence) {
      if (fence === null) opened = i + 1;
      fence = step.fence;
      continue;
    }
    if (fence === null && reservedHeading === null && /^ {0,3}##(\s|$)/.test(l)) reservedHeading = i + 1;
  }
  return { reservedHeading, unclosedFence: fence === null ? null : opened };
}

/**
 * One entry of `affects`: what a note governs. A code path or glob relative to the repository root
 * (`src/cache/**`, `engine/metal/*.metal`, `src/cache` for a folder and all under it), or a named
 * component written `component:<name>`. Whether a glob matches everything is the rule's business
 * (lib/rules/affects.ts); this is the entry's shape.
 */
export const COMPONENT_PREFIX = "component:";
export const affectsEntrySchema = line("affects entry", 200)
  .min(1, "an affects entry is empty")
  .superRefine((s, ctx) => {
    const problem = affectsEntryProblem(s);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

function affectsEntryProblem(entry: string): string | null {
  const quoted = JSON.stringify(entry);
  if (entry.startsWith(COMPONENT_PREFIX)) {
    const name = entry.slice(COMPONENT_PREFIX.length);
    if (!/^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,99}$/.test(name) || name !== name.trim())
      return `${quoted}: a component name after "component:" is letters, digits, spaces, ".", "_", "-" or "/", starting with a letter or digit`;
    return null;
  }
  if (entry.includes("\\")) return `${quoted}: write paths with "/", not "\\"`;
  if (entry.startsWith("/")) return `${quoted}: a path is relative to the repository root; drop the leading "/"`;
  if (entry.startsWith("!")) return `${quoted}: a negated glob ("!…") cannot say what a note governs; list what it does govern`;
  if (entry.split("/").some((part) => part === ".." || part === ".")) return `${quoted}: a path may not contain "." or ".." segments`;
  if (/\s/.test(entry.replace(/ /g, ""))) return `${quoted}: a path may not contain tabs or line breaks`;
  return null;
}

export const coreSchema = z
  .object({
    rank: z.number().int("core rank must be a whole number").min(1, "core rank starts at 1").max(99),
    label: line("core label", 60).min(1, "core label is empty"),
  })
  .strict();

export const provenanceSchema = z
  .object({
    source: z.enum(["seed-index", "author"]),
    detail: line("provenance detail", 500).optional(),
  })
  .strict();

export const sectionsSchema = z.object({
  decision: sectionSchema("Decision"),
  invariant: sectionSchema("Invariant"),
  rejectedShortcut: sectionSchema("Rejected shortcut"),
  evidence: sectionSchema("Evidence"),
  claimBoundary: sectionSchema("Claim boundary"),
  notes: sectionSchema("Notes"),
});
export type Sections = z.infer<typeof sectionsSchema>;

/** Front matter, as written in the YAML block (snake_case keys, as a person types them). */
export const frontMatterSchema = z
  .object({
    id: noteIdSchema,
    title: line("title", 200).min(1, "title is empty"),
    summary: line("summary", 600).min(1, "summary is empty"),
    status: z.enum(STATUSES, { error: `status must be one of: ${STATUSES.join(", ")}` }),
    boundaries: z
      .array(z.enum(BOUNDARIES, { error: `boundary must be one of: ${BOUNDARIES.join(", ")}` }))
      .refine((b) => new Set(b).size === b.length, "a boundary is listed twice")
      .default([]),
    phase: line("phase", 120).min(1, "phase is empty"),
    tags: z
      .array(line("tag", 60).min(1, "a tag is empty"))
      .max(20, "at most 20 tags")
      .refine((t) => new Set(t.map((x) => x.toLowerCase())).size === t.length, "a tag is listed twice")
      .default([]),
    // Editorial position in "All decision records": higher is listed first (newest first).
    order: z.number().int("order must be a whole number").min(0),
    core: coreSchema.optional(),
    related: z
      .array(noteIdSchema)
      .refine((r) => new Set(r).size === r.length, "a related note is listed twice")
      .default([]),
    // What the note governs: code paths, globs and named components (see affectsEntrySchema).
    affects: z
      .array(affectsEntrySchema)
      .max(50, "at most 50 affects entries")
      .refine((a) => new Set(a).size === a.length, "an affects entry is listed twice")
      .default([]),
    superseded_by: noteIdSchema.optional(),
    retraction_reason: line("retraction reason", 600).min(1).optional(),
    provenance: provenanceSchema.optional(),
  })
  .strict();
export type FrontMatter = z.infer<typeof frontMatterSchema>;

export const noteSchema = frontMatterSchema
  .extend({ sections: sectionsSchema })
  .refine((n) => !n.related.includes(n.id), { message: "a note cannot be related to itself", path: ["related"] })
  .refine((n) => n.superseded_by !== n.id, { message: "a note cannot supersede itself", path: ["superseded_by"] });
export type Note = z.infer<typeof noteSchema>;
/** What a caller may hand in: defaults (empty boundaries, tags, related) not yet applied. */
export type NoteInput = z.input<typeof noteSchema>;

export const STATUS_LABEL: Record<Status, string> = {
  draft: "draft",
  hypothesis: "hypothesis",
  "verified-checkpoint": "verified checkpoint",
  "verified-structural": "verified structural decision",
  superseded: "superseded",
  retracted: "retracted",
};

/** What each status means to a reader, and the hard limit it puts on an agent. */
export const STATUS_MEANING: Record<Status, string> = {
  draft: "Unpublished work in progress; never shown to the public or to agents.",
  hypothesis: "Proposed, not verified: do not rely on it as a result; treat it as a plan to test.",
  "verified-checkpoint": "Verified at a named checkpoint: the evidence holds for the pinned state it names, not beyond it.",
  "verified-structural": "A verified structural decision: the structure is proven; anything its claim boundary leaves open is not.",
  superseded: "Replaced by a later note: read the note that supersedes it instead.",
  retracted: "Withdrawn: its claims no longer stand; do not rely on any part of it.",
};

export const BOUNDARY_LABEL: Record<Boundary, string> = {
  "structural-only": "structural-only",
  "pinned-not-supported": "pinned, not supported",
};

export const BOUNDARY_MEANING: Record<Boundary, string> = {
  "structural-only": "Hard limit: proves structure only (layout, geometry, contracts); says nothing about numerical quality, codecs or performance.",
  "pinned-not-supported": "Hard limit: works against a pinned reference only; it is not a supported product path and normal execution still refuses it.",
};

export const PUBLISHED_STATUSES: readonly Status[] = STATUSES.filter((s) => s !== "draft");
export const isPublishedStatus = (s: Status) => s !== "draft";
