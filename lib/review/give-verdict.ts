import type { StudioActor } from "@/lib/auth/identity";
import { ApiError } from "@/lib/api/errors";
import type { VerdictRequest } from "@/lib/validations/review";
import { reviewTarget } from "./review-target";
import { clip, writeReview } from "./write-review";

/**
 * A verdict ("Approve" / "Request changes") on the note's current revision, by a reviewer who wrote
 * none of its revisions. A verdict on anything but the current revision would approve text nobody
 * is about to publish: 409 with the revision to review instead.
 */
export async function giveVerdict(actor: StudioActor, id: string, request: VerdictRequest) {
  if (actor.role !== "reviewer") throw new ApiError(403, "forbidden", `only reviewers give verdicts; ${actor.name} is signed in as an ${actor.role}`);
  const target = await reviewTarget(id);
  if (target.authors.includes(actor.id)) {
    throw new ApiError(403, "self-verdict", `${actor.name} wrote a revision of ${id}, so cannot give a verdict on it: an approval must come from someone else`);
  }
  if (!target.currentNote) throw new ApiError(422, "not-reviewable", `${id} has no saved, valid revision to give a verdict on`);
  if (request.revision !== target.currentRevision) {
    throw new ApiError(
      409,
      "stale-revision",
      `${id} is now at revision ${target.currentRevision.slice(0, 7)}, not ${request.revision.slice(0, 7)}: a verdict counts for the revision it names, so read the current one and give it there`,
      {},
      { currentRevision: target.currentRevision },
    );
  }
  const label = request.verdict === "approve" ? "approve" : "request changes on";
  return writeReview(actor, target, () => ({
    fields: { kind: "verdict", revision: request.revision, verdict: request.verdict, ...(request.summary ? { summary: request.summary } : {}) },
    message: `${label} revision ${request.revision.slice(0, 7)}${request.summary ? `: ${clip(request.summary)}` : ""}`,
  }));
}
