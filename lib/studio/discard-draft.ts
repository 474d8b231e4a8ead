import "server-only";
import { getStoreForWrite } from "@/lib/working-copy/content-store";
import { RefConflictError } from "@/lib/store";
import type { StudioActor } from "@/lib/rules/identity";
import { ApiError } from "@/lib/rules/api-errors";
import type { DiscardDraftRequest } from "@/lib/validations/studio";
import { discardedRef } from "@/lib/working-copy/layout";
import { staleRevision } from "./conflict";
import { loadNoteContext } from "./note-context";
import { draftRef } from "./refs";

/**
 * Discard a draft: its branch is deleted after its last revision is kept under
 * refs/discarded/<id>/<revision> (so `git log` still finds what was written, and a note never
 * published keeps its id: no other note is given it). Its review records stay on refs/reviews/<id>.
 * A note on main keeps its published version; one never published is gone from the studio.
 * Only the revision the author saw is discarded: a draft saved since is a 409, never lost unseen.
 */
export type DiscardResult = { id: string; discarded: string; published: boolean };

export async function discardDraft(actor: StudioActor, id: string, request: DiscardDraftRequest): Promise<DiscardResult> {
  if (actor.role !== "author") throw new ApiError(403, "forbidden", "only authors discard drafts");
  const ctx = await loadNoteContext(id, await getStoreForWrite());
  const { copy } = ctx;
  if (copy.source === "published" || !copy.draftHead) {
    throw new ApiError(409, "not-discardable", `${id} has no draft to discard: what is published stays; retract it with a reason, or supersede it`);
  }
  if (request.revision !== copy.draftHead) throw await staleRevision(ctx, request.revision, null);

  try {
    await ctx.store.updateRef(discardedRef(id, copy.draftHead), null, copy.draftHead);
  } catch (e) {
    if (!(e instanceof RefConflictError)) throw e; // kept already by an earlier try of this same discard
  }
  try {
    await ctx.store.updateRef(draftRef(id), copy.draftHead, null);
  } catch (e) {
    if (e instanceof RefConflictError) throw await staleRevision(await loadNoteContext(id), request.revision, null);
    throw e;
  }
  return { id, discarded: copy.draftHead, published: copy.onMain !== null };
}
