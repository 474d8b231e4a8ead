import { ApiError } from "@/lib/rules/api-errors";
import { fieldsOf } from "@/lib/validations/note";
import { viewOf } from "./note-view";
import type { NoteContext } from "./note-context";

/**
 * A stale request: the note moved since the editor opened `basedOn`. Nothing is written; the answer
 * carries their version (as GET shows it), the caller's own, and the version both started from,
 * so a client can show them side by side and merge field by field without losing either.
 */
export async function staleRevision(current: NoteContext, basedOn: string, yours: unknown): Promise<ApiError> {
  const theirs = await viewOf(current);
  const store = current.store;
  const then = /^[0-9a-f]{40}$/.test(basedOn) ? await store.readNote(current.id, basedOn).catch(() => null) : null;
  const by = theirs.lastChange ? ` (last change by ${theirs.lastChange.author.name}, ${theirs.lastChange.date})` : "";
  return new ApiError(
    409,
    "stale-revision",
    `${current.id} changed since revision ${basedOn.slice(0, 7)} was opened: it is now at ${theirs.revision.slice(0, 7)}${by}. Nothing was written; both versions are in this answer.`,
    {},
    { theirs, yours, base: then?.ok ? fieldsOf(then.note) : null },
  );
}
