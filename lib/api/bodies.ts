import { z } from "zod";
import { noteFieldsSchema, type NoteFields } from "@/lib/validations/note";
import { API_ERRORS, type ApiErrorBody, type ApiErrorCode } from "./errors";

/**
 * The error bodies the studio's client reads, as zod schemas: lib/queries/fetch.ts parses every
 * error answer with `apiErrorBody`, and the editor reads a 409 with `conflictOf`, so an answer the
 * client does not understand is reported as such instead of being read as something it is not.
 * The shapes are the ones lib/api/respond.ts and lib/studio/conflict.ts build.
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
