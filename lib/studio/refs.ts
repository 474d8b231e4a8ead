import { NOTE_ID } from "@/lib/notes/schema";
import { ApiError } from "@/lib/api/errors";

/** Where notes live in the content repository: published on main, drafts one branch each. */

export const MAIN_REF = "refs/heads/main";
export const DRAFTS_PREFIX = "refs/heads/drafts/";

export const draftRef = (id: string) => `${DRAFTS_PREFIX}${id}`;
export const notePath = (id: string) => `notes/${id}.md`;

/** The note id a draft branch is for, or null for a branch that is not one. */
export function idOfDraftRef(ref: string): string | null {
  const id = ref.startsWith(DRAFTS_PREFIX) ? ref.slice(DRAFTS_PREFIX.length) : "";
  return NOTE_ID.test(id) ? id : null;
}

/** A note id from a URL: "AFN-022" (any case); anything else is a 404, as for a note that does not exist. */
export function noteIdParam(raw: string): string {
  let id: string;
  try {
    id = decodeURIComponent(raw).toUpperCase();
  } catch {
    id = "";
  }
  if (!NOTE_ID.test(id)) throw new ApiError(404, "not-found", `"${raw}" is not a note id (expected an id like AFN-022)`);
  return id;
}
