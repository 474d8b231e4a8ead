import { z } from "zod";
import { BOUNDARIES, SECTIONS, STATUSES, type Note, type SectionKey } from "@/lib/notes/schema";
import { noteFieldsSchema, type NoteFields } from "@/lib/validations/note";
// Types only (erased from the browser bundle): the server's answers, which the schemas below must equal.
import type { Inbox } from "@/lib/review/inbox";
import type { ReviewView } from "@/lib/review/read-review";
import type { NoteListEntry } from "@/lib/studio/list-notes";
import type { MainState } from "@/lib/studio/main-state";
import type { NoteView } from "@/lib/studio/note-view";
import type { PublishResult } from "@/lib/studio/publish-note";
import type { DiscardResult } from "@/lib/studio/discard-draft";
import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from "@/lib/rules/api-errors";

/**
 * The bodies the studio's client reads, as zod schemas: lib/queries/fetch.ts parses every answer
 * with one of them (a success with the endpoint's schema, an error with `apiErrorBody`), and the
 * editor reads a 409 with `conflictOf`, so an answer the client does not understand is reported as
 * such instead of being read as something it is not (and crashing the component that reads it).
 * The error shapes are the ones lib/api/respond.ts and lib/studio/conflict.ts build; the success
 * shapes are held equal to the server's types at compile time (`sameAsServer` at the end).
 */

const codes = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

export const whereSchema = z.object({
  field: z.string(),
  message: z.string(),
  line: z.number().optional(),
  column: z.number().optional(),
  rule: z.string().optional(),
  excerpt: z.string().optional(),
});

/** `{ error: { status, code, message, where?, unmet? } }` plus whatever else the answer carries (both versions of a conflict). */
export const apiErrorBody = z.looseObject({
  error: z.object({
    status: z.number().int(),
    code: z.enum(codes),
    message: z.string(),
    where: z.array(whereSchema).optional(),
    unmet: z.array(z.string()).optional(),
  }),
});

const person = z.object({ name: z.string(), email: z.string().optional() });

/** 409 stale-revision: the note moved since the editor opened its revision (lib/studio/conflict.ts). */
export const staleRevisionBody = z.looseObject({
  error: z.object({ code: z.literal("stale-revision"), message: z.string() }),
  theirs: z.looseObject({ revision: z.string(), fields: noteFieldsSchema.nullable(), lastChange: z.object({ author: person }).nullable().optional() }),
  base: noteFieldsSchema.nullable().optional(),
});

/** 409 main-changed: main's copy of the note changed after the draft began (lib/studio/publish-note.ts). */
export const mainChangedBody = z.looseObject({
  error: z.object({ code: z.literal("main-changed"), message: z.string() }),
  main: z.string(),
  theirs: z.looseObject({ source: z.literal("main"), commit: z.string(), author: person, fields: noteFieldsSchema.nullable() }),
});

/** What the editor shows side by side for a conflict: their fields, the common base, who changed it, and what to send next. */
export type Conflict = { theirs: NoteFields; base: NoteFields | null | undefined; by: string; revision: string | undefined; main: string | undefined };

/** A 409 with both versions read from its body, or null when the answer is not such a conflict (or their side has no readable note). */
export function conflictOf(status: number, body: unknown): Conflict | null {
  if (status !== 409) return null;
  const stale = staleRevisionBody.safeParse(body);
  if (stale.success && stale.data.theirs.fields) {
    const { theirs, base } = stale.data;
    return { theirs: theirs.fields!, base, by: theirs.lastChange?.author.name ?? "Someone", revision: theirs.revision, main: undefined };
  }
  const main = mainChangedBody.safeParse(body);
  if (main.success && main.data.theirs.fields) {
    const { theirs } = main.data;
    return { theirs: theirs.fields!, base: null, by: theirs.author.name, revision: undefined, main: main.data.main };
  }
  return null;
}

/** An error answer's body, or null when it is not one the API builds (a proxy's HTML page, a truncated answer). */
export function readErrorBody(body: unknown): (ApiErrorBody & Record<string, unknown>) | null {
  const parsed = apiErrorBody.safeParse(body);
  return parsed.success ? (parsed.data as ApiErrorBody & Record<string, unknown>) : null;
}

// ---- Success bodies. They check the answer's shape, which is what a component relies on; the
// rules (a title's length, a section's headings) are the server's to check, so a note the server
// accepted is never refused here.

const status = z.enum(STATUSES);
const sectionKey = z.enum(SECTIONS.map((x) => x.key) as [SectionKey, ...SectionKey[]]);
const author = z.object({ name: z.string(), email: z.string() });
const who = z.object({ id: z.string(), name: z.string() });
const sectionsShape = z.object(Object.fromEntries(SECTIONS.map((x) => [x.key, z.string()])) as Record<SectionKey, z.ZodString>);

/** A stored note (lib/notes/schema.ts's Note), by shape. */
const noteShape = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  status,
  boundaries: z.array(z.enum(BOUNDARIES)),
  phase: z.string(),
  tags: z.array(z.string()),
  order: z.number(),
  core: z.object({ rank: z.number(), label: z.string() }).optional(),
  related: z.array(z.string()),
  affects: z.array(z.string()),
  superseded_by: z.string().optional(),
  retraction_reason: z.string().optional(),
  provenance: z.object({ source: z.enum(["seed-index", "author"]), detail: z.string().optional() }).optional(),
  sections: sectionsShape,
});

const verdictKind = z.enum(["approve", "request-changes"]);
const reviewState = z.object({
  verdicts: z.array(
    z.object({
      reviewer: z.string(),
      revision: z.string(),
      verdict: verdictKind,
      withdrawn: z.boolean().optional(),
      name: z.string().optional(),
      at: z.string().optional(),
    }),
  ),
});

/** GET /api/studio/notes/<id>, and the note every note write answers (lib/studio/note-view.ts). */
export const noteViewBody = z.object({
  id: z.string(),
  source: z.enum(["draft", "published", "new"]),
  revision: z.string(),
  noteRevision: z.string(),
  status,
  note: noteShape.nullable(),
  fields: noteFieldsSchema,
  errors: z.array(z.object({ line: z.number(), field: z.string(), message: z.string() })),
  findings: z.array(whereSchema),
  published: z.boolean(),
  lastChange: z.object({ commit: z.string(), date: z.string(), author, message: z.string() }).nullable(),
  revisionAuthors: z.array(z.string()),
  publishedIds: z.array(z.string()),
  reviews: reviewState,
  onMain: noteShape.nullable(),
  requiredApprovals: z.number(),
  phases: z.array(z.string()),
  phaseTitles: z.record(z.string(), z.string()),
});

/** PUT /api/studio/notes/<id>: the note after the save, and whether anything was committed. */
export const savedNoteBody = noteViewBody.extend({ saved: z.boolean() });

/** POST …/publish: main's new commit (null: main already held the note), whether the draft stays, the note after. */
export const publishBody = z.object({ commit: z.string().nullable(), draftKept: z.boolean(), view: noteViewBody });

const noteListEntry = z.object({
  id: z.string(),
  title: z.string(),
  status: status.nullable(),
  publishedStatus: status.nullable(),
  draft: z.boolean(),
  invalid: z.boolean(),
  lastChange: z.object({ commit: z.string(), date: z.string(), author, by: z.string() }).nullable(),
});

/** What the studio says about main (lib/studio/main-state.ts): a refused commit not served, a rewind. */
const mainStateBody = z.object({
  refused: z.object({ commit: z.string(), file: z.string(), line: z.number(), rule: z.string(), message: z.string(), served: z.string() }).nullable(),
  rewind: z.object({ from: z.string(), to: z.string(), at: z.string(), followed: z.boolean() }).nullable(),
});

/** GET /api/studio/notes: the studio's list (lib/studio/list-notes.ts) and main's state. */
export const noteListBody = z.object({ notes: z.array(noteListEntry), main: mainStateBody });

const comment = z.object({
  id: z.string(),
  by: who,
  at: z.string(),
  text: z.string(),
  history: z.array(z.object({ text: z.string(), at: z.string() })),
  editedAt: z.string().optional(),
  revision: z.string().optional(),
});

const thread = z.object({
  id: z.string(),
  section: sectionKey,
  quote: z.string().optional(),
  revision: z.string(),
  anchor: z.string(),
  by: who,
  at: z.string(),
  comments: z.array(comment),
  resolved: z.boolean(),
  resolutions: z.array(z.object({ action: z.enum(["resolve", "reopen"]), by: who, at: z.string() })),
  outdated: z.boolean(),
});

const verdictState = z.enum(["approved", "changes-requested", "awaiting"]);

/** GET …/threads, and what every review write answers: the note's review (lib/review/read-review.ts). */
export const reviewBody = z.object({
  currentRevision: z.string(),
  threads: z.array(thread),
  verdicts: z.array(
    z.object({
      id: z.string(),
      reviewer: who,
      revision: z.string(),
      verdict: verdictKind,
      summary: z.string().optional(),
      at: z.string(),
      stale: z.boolean(),
      replaced: z.boolean(),
      selfVerdict: z.boolean(),
      withdrawnAt: z.string().optional(),
    }),
  ),
  requests: z.array(
    z.object({
      id: z.string(),
      by: who,
      at: z.string(),
      revision: z.string(),
      reviewers: z.array(who),
      purpose: z.enum(["verify", "publish", "changes"]),
      text: z.string().optional(),
    }),
  ),
  state: reviewState,
  problems: z.array(z.string()),
  id: z.string(),
  status: status.nullable(),
  revisionAuthors: z.array(z.string()),
  verdictState,
  reviewHead: z.string().nullable(),
});

/** What a review write answers: the review after it, and the new record's id under the name of its kind (a reply answers `comment`). */
export const reviewWriteBody = reviewBody.extend({
  thread: z.string().optional(),
  comment: z.string().optional(),
  verdict: z.string().optional(),
  request: z.string().optional(),
});

const reviewSummary = z.object({
  id: z.string(),
  title: z.string().nullable(),
  status: status.nullable(),
  draft: z.boolean(),
  currentRevision: z.string(),
  openThreads: z.number(),
  outdatedThreads: z.number(),
  verdictState,
  staleVerdicts: z.number(),
});

const inboxEntry = reviewSummary.extend({
  changed: z.array(z.string()).nullable(),
  since: z.object({ kind: z.enum(["your-verdict", "published"]), revision: z.string(), verdict: verdictKind.optional(), at: z.string().optional() }).nullable(),
  request: z
    .object({ by: z.string(), at: z.string(), named: z.boolean(), purpose: z.enum(["verify", "publish", "changes"]), text: z.string().optional() })
    .nullable(),
});

/** GET /api/studio/reviews: what waits for the signed-in person (lib/review/inbox.ts). */
export const inboxBody = z.object({
  requested: z.array(inboxEntry),
  waiting: z.array(inboxEntry),
  changedSinceReview: z.array(inboxEntry),
  awaitingReply: z.array(
    z.object({
      id: z.string(),
      title: z.string().nullable(),
      thread: z.object({ id: z.string(), section: sectionKey, quote: z.string().optional(), outdated: z.boolean() }),
      last: z.object({ by: z.string(), at: z.string(), text: z.string() }),
    }),
  ),
  notes: z.array(reviewSummary),
});

/** GET /api/studio/reviewers: who an author can ask for a review (`name` is what a request names, `displayName` what people see). */
export const reviewersBody = z.object({ reviewers: z.array(who.extend({ displayName: z.string() })) });

/** DELETE /api/studio/notes/<id>: the discarded draft (lib/studio/discard-draft.ts). */
export const discardBody = z.object({ id: z.string(), discarded: z.string(), published: z.boolean() });

/**
 * Each schema's output is the server's type, and the server's type is the schema's: a member added,
 * dropped, renamed or retyped on either side fails `tsc` here, before a client misreads an answer.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameAsServer: [
  Same<z.infer<typeof noteShape>, Note>,
  Same<z.infer<typeof noteViewBody>, NoteView>,
  Same<z.infer<typeof publishBody>, PublishResult>,
  Same<z.infer<typeof noteListBody>["notes"][number], NoteListEntry>,
  Same<z.infer<typeof mainStateBody>, MainState>,
  Same<z.infer<typeof reviewBody>, ReviewView>,
  Same<z.infer<typeof inboxBody>, Inbox>,
  Same<z.infer<typeof discardBody>, DiscardResult>,
] = [true, true, true, true, true, true, true, true];
void sameAsServer;
