import { z } from "zod";
import { SECTIONS, type SectionKey } from "@/lib/notes/schema";

/** Request bodies of the review API (threads, comments, verdicts), shared by the review forms and the route handlers. */

const REVISION = "must be the 40-character commit id of the revision being reviewed";
const revision = z.string({ error: REVISION }).regex(/^[0-9a-f]{40}$/, REVISION);
const text = z.string({ error: "a comment needs text" }).trim().min(1, "a comment needs text").max(8000, "at most 8000 characters");
const SECTION_KEYS = SECTIONS.map((s) => s.key) as [SectionKey, ...SectionKey[]];

export const startThreadRequest = z
  .object({
    section: z.enum(SECTION_KEYS, { error: `must be one of: ${SECTION_KEYS.join(", ")}` }),
    quote: z
      .string()
      .trim()
      .max(1000, "quote at most 1000 characters")
      .optional()
      .transform((q) => (q ? q : undefined)),
    revision,
    text,
  })
  .strict();
export type StartThreadRequest = z.infer<typeof startThreadRequest>;

export const replyRequest = z.object({ text }).strict();
export type ReplyRequest = z.infer<typeof replyRequest>;

export const editCommentRequest = z.object({ text }).strict();
export type EditCommentRequest = z.infer<typeof editCommentRequest>;

/** Free text a request may leave out: trimmed, at most 4000 characters, absent when empty. */
const optionalText = z
  .string()
  .trim()
  .max(4000, "at most 4000 characters")
  .optional()
  .transform((s) => (s ? s : undefined));

export const verdictRequest = z
  .object({
    verdict: z.enum(["approve", "request-changes"], { error: 'must be "approve" or "request-changes"' }),
    revision,
    summary: optionalText,
  })
  .strict();
export type VerdictRequest = z.infer<typeof verdictRequest>;

export const emptyRequest = z.object({}).strict();

export const reviewRequestBody = z
  .object({
    revision,
    /** Reviewer account ids; empty: any reviewer. */
    reviewers: z.array(z.string().trim().min(1, "a reviewer's name is empty").max(200)).max(20, "ask at most 20 reviewers at once").default([]),
    text: optionalText,
  })
  .strict();
export type ReviewRequestBody = z.infer<typeof reviewRequestBody>;
