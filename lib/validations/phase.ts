import { z } from "zod";

/** Request bodies of the phase endpoints (/api/studio/phases/…). */

export const closePhaseRequest = z
  .object({
    /** The "no new decision delta" record, in words; leave out to close with the phase's delta. */
    noDeltaWhy: z.string().trim().max(2000, "at most 2,000 characters").optional(),
  })
  .strict();
export type ClosePhaseRequest = z.infer<typeof closePhaseRequest>;

export const reopenPhaseRequest = z.object({ reason: z.string().trim().min(1, "say why the phase reopens").max(600, "at most 600 characters") }).strict();
export type ReopenPhaseRequest = z.infer<typeof reopenPhaseRequest>;

/** POST /api/studio/phases: a new open phase; its slug is the name's URL form and never changes. */
export const createPhaseRequest = z
  .object({
    name: z.string().trim().min(1, "name the phase").max(120, "at most 120 characters"),
    description: z.string().trim().max(2000, "at most 2,000 characters").optional(),
  })
  .strict();
export type CreatePhaseRequest = z.infer<typeof createPhaseRequest>;

/** POST /api/studio/phases/<slug>/rename: the name the phase is shown by; its slug and the name notes carry stay. */
export const renamePhaseRequest = z.object({ name: z.string().trim().min(1, "name the phase").max(120, "at most 120 characters") }).strict();
export type RenamePhaseRequest = z.infer<typeof renamePhaseRequest>;
