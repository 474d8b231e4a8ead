import "server-only";
import type { StudioActor } from "@/lib/rules/identity";
import { reviewOf, type ReviewView } from "@/lib/review/read-review";
import { reviewTargetOf } from "@/lib/review/review-target";
import { loadNoteContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";

/** One note as the studio edits it: its draft, or the published note a draft would start from. */
export async function readNote(_actor: StudioActor, id: string): Promise<NoteView> {
  return viewOf(await loadNoteContext(id));
}

/** The note and its review from one read of the refs: what the review page shows side by side. */
export async function readNoteWithReview(_actor: StudioActor, id: string): Promise<{ view: NoteView; review: ReviewView }> {
  const ctx = await loadNoteContext(id);
  const [view, review] = await Promise.all([viewOf(ctx), reviewOf(reviewTargetOf({ ...ctx, reviewHead: ctx.reviewLog.head }))]);
  return { view, review };
}
