import { z } from "zod";
import { STATUSES } from "@/lib/notes/schema";
import { noteFieldsSchema } from "./note";

/** Request bodies of the studio API, parsed at the boundary of each route handler. */

const REVISION = "must be the 40-character commit id the note was opened at (its `revision` from GET)";
const revision = z.string({ error: REVISION }).regex(/^[0-9a-f]{40}$/, REVISION);
const reason = z.string().trim().max(600, "at most 600 characters").optional();

/**
 * A note as the API takes it: the editable fields, plus the read-only ones a client may send back
 * unchanged (as it got them from GET). Changing a read-only field here is refused by the save.
 */
export const noteBodySchema = noteFieldsSchema.extend({
  id: z.string().optional(),
  status: z.string().optional(),
  order: z.number().optional(),
  superseded_by: z.string().nullable().optional(),
  retraction_reason: z.string().nullable().optional(),
  provenance: z.unknown().optional(),
});
export type NoteBody = z.infer<typeof noteBodySchema>;

export const createNoteRequest = z.object({ note: noteFieldsSchema.partial().optional() }).strict();
export type CreateNoteRequest = z.infer<typeof createNoteRequest>;

export const saveDraftRequest = z.object({ revision, note: noteBodySchema, reason }).strict();
export type SaveDraftRequest = z.infer<typeof saveDraftRequest>;

export const changeStatusRequest = z
  .object({
    to: z.enum(STATUSES, { error: `must be one of: ${STATUSES.join(", ")}` }),
    revision,
    reason,
    superseded_by: z.string().trim().toUpperCase().optional(),
  })
  .strict();
export type ChangeStatusRequest = z.infer<typeof changeStatusRequest>;

export const publishNoteRequest = z
  .object({
    revision,
    // The main commit whose version of the note the author has seen and merged (after a "main-changed" 409).
    main: z
      .string()
      .regex(/^[0-9a-f]{40}$/, "must be a 40-character commit id")
      .optional(),
  })
  .strict();
export type PublishNoteRequest = z.infer<typeof publishNoteRequest>;

/** DELETE /api/studio/notes/<id>: discard the draft at exactly this revision. */
export const discardDraftRequest = z.object({ revision }).strict();
export type DiscardDraftRequest = z.infer<typeof discardDraftRequest>;
