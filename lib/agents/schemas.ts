import { z } from "zod";
import { BOUNDARIES, frontMatterSchema, noteIdSchema, SECTIONS, sectionsSchema, STATUSES, type SectionKey } from "@/lib/notes/schema";
import type { SchemaName } from "./urls";

/**
 * The shapes of every JSON document the agent surface serves. The JSON Schemas published at
 * /agents/schema/<name>.json are generated from these, so the documentation cannot drift from
 * the responses; the tests validate real responses against the published schemas.
 */

const commit = z
  .string()
  .regex(/^[0-9a-f]{40}$/)
  .describe("The commit on main the document was built from.");
const url = z.url();

/** Only published statuses ever reach an agent: a draft is never in any agent document. */
export const publishedStatusSchema = z.enum(STATUSES).exclude(["draft"]);

export const flagsSchema = z
  .object({
    hypothesis: z.boolean().describe("Proposed, not verified: a plan to test, never a result."),
    structural_only: z.boolean().describe("Proves structure only: no numerical quality, codec or performance claim."),
    pinned_not_supported: z.boolean().describe("Works against a pinned reference only: not a supported product path."),
  })
  .strict()
  .describe("Hard limits as booleans. Any true flag limits what the note may be used for.");

export const limitSchema = z
  .object({ flag: z.enum(["hypothesis", ...BOUNDARIES]), meaning: z.string() })
  .strict()
  .describe("One hard limit that applies, with what it forbids.");

const boundarySchema = z.object({ boundary: z.enum(BOUNDARIES), meaning: z.string() }).strict();

export const indexEntrySchema = z
  .object({
    id: noteIdSchema,
    title: z.string(),
    decision: z.string().describe("The decision in one line (the first sentence of the note's Decision, clipped to fit the entry)."),
    status: publishedStatusSchema,
    boundaries: z.array(z.enum(BOUNDARIES)),
    flags: flagsSchema,
    limits: z.array(limitSchema),
    tags: z.array(z.string()),
    phase: z.string(),
    phase_title: z.string().optional().describe("The name the note's phase is shown by since it was renamed; `phase` stays the name notes carry."),
    core_rank: z.int().min(1).nullable().describe("Rank among the core decisions to start with, or null."),
    urls: z.object({ capsule_md: url, capsule_json: url, note_html: url, note_md: url, note_txt: url, note_json: url }).strict(),
  })
  .strict();
export type IndexEntry = z.infer<typeof indexEntrySchema>;

export const indexSchema = z
  .object({
    commit,
    site: z.object({ title: z.string(), url, guide: url }).strict(),
    retrieval: z.string().describe("The retrieval protocol agents follow."),
    statuses: z.record(publishedStatusSchema, z.string()).describe("What each status means."),
    legend: z.array(limitSchema).describe("Every hard limit with its meaning."),
    count: z.int().min(0).describe("How many notes are published (all pages together)."),
    cursor: z
      .string()
      .nullable()
      .optional()
      .describe("The cursor this page was asked for (null: the first page); present only when the index has more than one page."),
    next: url.nullable().optional().describe("The URL of the next page, or null on the last one; present only when the index has more than one page."),
    entries: z.array(indexEntrySchema),
  })
  .strict();
export type IndexDocument = z.infer<typeof indexSchema>;

export const searchSchema = z
  .object({
    commit,
    query: z.string(),
    limit: z.int().min(1),
    count: z.int().min(0),
    results: z.array(
      indexEntrySchema
        .extend({
          score: z.number(),
          field: z.string().describe("The field where the best match is."),
          passage: z.string().describe("Plain text around the match."),
        })
        .strict(),
    ),
  })
  .strict();
export type SearchDocument = z.infer<typeof searchSchema>;

export const capsuleSchema = z
  .object({
    commit,
    id: noteIdSchema,
    title: z.string(),
    status: publishedStatusSchema,
    status_meaning: z.string(),
    boundaries: z.array(boundarySchema),
    flags: flagsSchema,
    limits: z.array(limitSchema),
    decision: z.string(),
    invariant: z.string(),
    rejected_shortcut: z.string(),
    claim_boundary: z.string(),
    evidence: z.object({ summary: z.string(), url }).strict().describe("Where the evidence is."),
    related: z.array(z.object({ id: noteIdSchema, title: z.string(), status: publishedStatusSchema, capsule_url: url }).strict()),
    affects: z
      .array(z.string())
      .describe("What the note governs: code paths and globs relative to a repository's root, and components written component:<name>."),
    superseded_by: noteIdSchema.nullable(),
    open_full_note: z.object({ when: z.string(), url }).strict(),
    cite: z
      .object({ live: url, pinned: url.describe("The note as published at `commit` (?rev=): its text never changes.") })
      .strict()
      .describe("Where to cite the note."),
  })
  .strict();
export type Capsule = z.infer<typeof capsuleSchema>;

const citeSchema = z
  .object({
    live: url.describe("The note's page: always its current version."),
    pinned: url.describe("The note as published at `commit` (?rev=): its text never changes."),
    sections: z.record(z.enum(SECTIONS.map((s) => s.key) as [SectionKey, ...SectionKey[]]), url).describe("Each section's pinned URL with its stable anchor."),
  })
  .strict()
  .describe("Where to cite the note.");

/** The full note as JSON: the note file's own fields, plus the limits spelled out and where it lives. */
export const noteDocumentSchema = frontMatterSchema
  .extend({
    status: publishedStatusSchema,
    sections: sectionsSchema,
    commit,
    phase_title: z.string().optional().describe("The name the note's phase is shown by since it was renamed; `phase` stays the name notes carry."),
    status_meaning: z.string(),
    boundary_meanings: z.array(boundarySchema),
    flags: flagsSchema,
    limits: z.array(limitSchema),
    backlinks: z.array(noteIdSchema).describe("Published notes that mention or relate to this one."),
    images: z
      .array(z.object({ section: z.string(), alt: z.string(), url }).strict())
      .describe(
        "The figures the sections show, in order: alt text (what each shows) and the image's absolute URL. The sections reference them as assets/<id>/<hash>.<ext>.",
      ),
    cite: citeSchema,
    urls: z.object({ html: url, md: url, txt: url, json: url, capsule_md: url, capsule_json: url }).strict(),
  })
  .strict();
export type NoteDocument = z.infer<typeof noteDocumentSchema>;

const changeKinds = ["added", "changed", "re-statused", "superseded", "retracted", "removed"] as const;

export const noteChangeSchema = z
  .object({
    id: noteIdSchema,
    title: z.string(),
    kind: z
      .enum(changeKinds)
      .describe(
        "added: published since; changed: same status, other fields; re-statused: another status (e.g. promoted); superseded / retracted: it became one; removed: no longer published.",
      ),
    status: publishedStatusSchema.nullable().describe("Its status now (null: removed)."),
    previous_status: publishedStatusSchema.nullable().describe("Its status at `since` (null: added)."),
    fields: z.array(z.string()).describe("The fields that changed (title, summary, status, tags, decision, evidence, …); empty for added and removed."),
    superseded_by: noteIdSchema.nullable(),
    retraction_reason: z.string().nullable(),
    url: url.nullable().describe("The note as JSON now (null: removed)."),
  })
  .strict();
export type NoteChange = z.infer<typeof noteChangeSchema>;

export const changesSchema = z
  .object({
    since: commit.describe("The commit asked about."),
    commit: commit.describe("Main's commit the changes run to: keep it and ask with it next time."),
    count: z.int().min(0).describe("How many notes changed (all pages together)."),
    changes: z.array(noteChangeSchema).describe("One page of changed notes, by id."),
    next: z.string().nullable().describe("The cursor of the next page (pass it as `cursor`), or null on the last one."),
    next_url: url.nullable().describe("The URL of the next page, or null on the last one."),
  })
  .strict();
export type ChangesDocument = z.infer<typeof changesSchema>;
const governedMatch = z
  .object({ path: z.string().describe("A path or component the question named."), entry: z.string().describe("The note's affects entry that matched it.") })
  .strict();

export const governingNoteSchema = z
  .object({
    id: noteIdSchema,
    title: z.string(),
    status: publishedStatusSchema,
    status_meaning: z.string(),
    boundaries: z.array(boundarySchema),
    flags: flagsSchema,
    limits: z.array(limitSchema),
    invariant: z.string().describe("The Invariant section in full (Markdown)."),
    claim_boundary: z.string().describe("The Claim boundary section in full (Markdown)."),
    affects: z.array(z.string()),
    matched: z.array(governedMatch).min(1),
    needs_human_review: z.boolean().describe("A verified structural decision, or a pinned-not-supported boundary: a change here needs a person's look."),
    revision: commit.describe("The commit on main that last changed the note: its citation is pinned to it."),
    urls: z
      .object({
        live: url,
        pinned: url.describe("The note as published at `revision`; its text never changes."),
        invariant: url,
        claim_boundary: url,
        decision: url,
        capsule_md: url,
      })
      .strict(),
  })
  .strict();
export type GoverningNote = z.infer<typeof governingNoteSchema>;

export const governingSchema = z
  .object({
    commit,
    paths: z.array(z.string()).describe("The repository paths asked about (from the query or the diff)."),
    components: z.array(z.string()),
    needs_human_review: z.boolean().describe("Whether any governing note needs a person's look (see each note)."),
    count: z.int().min(0),
    notes: z
      .array(governingNoteSchema)
      .describe(
        "Published notes in force whose affects match, strongest status first (verified structural, checkpoint, hypothesis), then the most specific match.",
      ),
    replaced: z
      .array(
        z
          .object({
            id: noteIdSchema,
            title: z.string(),
            status: z.enum(["superseded", "retracted"]),
            matched: z.array(governedMatch).min(1),
            superseded_by: noteIdSchema.nullable().describe("The published note in force that replaced it (the end of the supersession chain), or null."),
            successor_listed: z.boolean().describe("Whether that successor governs these paths too, and so is among `notes`."),
          })
          .strict(),
      )
      .describe("Superseded and retracted notes whose affects match: not in force, so not in `notes`; read their successor instead."),
  })
  .strict();
export type GoverningDocument = z.infer<typeof governingSchema>;

export const AGENT_SCHEMAS: Record<SchemaName, { schema: z.ZodType; title: string }> = {
  note: { schema: noteDocumentSchema, title: "Field note (full)" },
  "index-entry": { schema: indexEntrySchema, title: "Compact index entry" },
  capsule: { schema: capsuleSchema, title: "Retrieval capsule" },
  index: { schema: indexSchema, title: "Compact index" },
  search: { schema: searchSchema, title: "Search results" },
  changes: { schema: changesSchema, title: "Changes since a commit" },
  governing: { schema: governingSchema, title: "Notes governing a change" },
};

/** The published JSON Schema (draft 2020-12) of one document, identified by its own URL. */
export function jsonSchemaOf(name: SchemaName, id: string): Record<string, unknown> {
  const { schema, title } = AGENT_SCHEMAS[name];
  return { ...z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }), $id: id, title };
}
