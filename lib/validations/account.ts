import { z } from "zod";

/** The one rule for a display name, shared by `npm run user`, the studio API and its form. */

export const DISPLAY_NAME_MAX = 80;

/** Why a display name cannot be used, or null: one line of 1-80 characters once trimmed. */
export function displayNameProblem(displayName: string): string | null {
  const trimmed = displayName.trim();
  if (trimmed.length === 0) return "the display name is empty";
  if (trimmed.length > DISPLAY_NAME_MAX) return `the display name is longer than ${DISPLAY_NAME_MAX} characters`;
  if (/[\u0000-\u001f\u007f<>]/.test(trimmed)) return "the display name may not hold control characters, < or >";
  return null;
}

/** PUT /api/studio/account: the signed-in account's own display name. */
export const displayNameRequest = z
  .object({
    displayName: z.string().superRefine((value, ctx) => {
      const problem = displayNameProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    }),
  })
  .strict();
export type DisplayNameRequest = z.infer<typeof displayNameRequest>;
