import { NOTE_ID } from "@/lib/notes/schema";
import { ApiError } from "@/lib/rules/api-errors";
import { decodeParam } from "@/lib/web/params";

// The repository's layout lives one layer down, shared with lib/review.
export { DRAFTS_PREFIX, draftRef, idOfDraftRef, MAIN_REF, noMain, notePath } from "@/lib/working-copy/layout";

/** A note id from a URL: "AFN-022" (any case); anything else is a 404, as for a note that does not exist. */
export function noteIdParam(raw: string): string {
  const id = (decodeParam(raw) ?? "").toUpperCase();
  if (!NOTE_ID.test(id)) throw new ApiError(404, "not-found", `"${raw}" is not a note id (expected an id like AFN-022)`);
  return id;
}
