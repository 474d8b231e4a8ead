import "server-only";
import type { StudioActor } from "@/lib/rules/identity";
import type { VerdictRequest } from "@/lib/validations/review";
import { reviewTarget } from "./review-target";
import { clip, writeReview } from "./write-review";

/**
 * A verdict ("Approve" / "Request changes") on the note's current revision. Who may give it, on
 * which revision, is decided by the acceptance function (lib/rules/review-write.ts): reviewers
 * only (403), never one who wrote a revision of the note (403), on the current revision only (409,
 * naming it: a verdict on anything else would approve text nobody is about to publish).
 */
export async function giveVerdict(actor: StudioActor, id: string, request: VerdictRequest) {
  const target = await reviewTarget(id);
  const label = request.verdict === "approve" ? "approve" : "request changes on";
  return writeReview(
    actor,
    target,
    { kind: "verdict", after: { revision: request.revision, verdict: request.verdict, ...(request.summary ? { summary: request.summary } : {}) } },
    () => ({
      fields: { kind: "verdict", revision: request.revision, verdict: request.verdict, ...(request.summary ? { summary: request.summary } : {}) },
      message: `${label} revision ${request.revision.slice(0, 7)}${request.summary ? `: ${clip(request.summary)}` : ""}`,
    }),
  );
}

/**
 * A reviewer takes back their own request for changes (DELETE …/verdicts/<verdict id>): the record
 * stays, a `withdraw` record marks it, and the request no longer holds the publish back.
 */
export async function withdrawVerdict(actor: StudioActor, id: string, verdictId: string) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, { kind: "verdict-withdraw", after: { verdict: verdictId } }, () => ({
    fields: { kind: "withdraw", verdict: verdictId },
    message: `withdraw the request for changes ${verdictId}`,
  }));
}
