import "server-only";
import type { StudioActor } from "@/lib/rules/identity";
import { listAccounts } from "@/lib/auth/accounts";
import { config } from "@/lib/env";
import type { RequestedReviewer } from "@/lib/rules/review-write";
import type { ReviewRequestBody } from "@/lib/validations/review";
import { reviewTarget } from "./review-target";
import { clip, writeReview } from "./write-review";

/**
 * An author asks for a review of the note's current revision: of named reviewers, or of any
 * reviewer (empty list). Stored as a `request` record on refs/reviews/<id>, so every instance and
 * every clone sees who was asked. What it asks for follows from where the note stands: a draft is
 * put up for publishing, a published hypothesis with no draft for verification.
 */
export async function requestReview(actor: StudioActor, id: string, body: ReviewRequestBody) {
  const target = await reviewTarget(id);
  const known = await reviewersByName();
  const reviewers: RequestedReviewer[] = body.reviewers.map((name) => known.get(name) ?? { id: name, name, role: null });
  const purpose = target.copy.source === "published" ? "verify" : "publish";
  const named = reviewers.map((r) => r.name).join(", ") || "any reviewer";
  return writeReview(
    actor,
    target,
    { kind: "review-request", after: { revision: body.revision, reviewers, ...(body.text ? { text: body.text } : {}) } },
    () => ({
      fields: {
        kind: "request",
        revision: body.revision,
        reviewers: reviewers.map(({ id, name }) => ({ id, name })),
        purpose,
        ...(body.text ? { text: body.text } : {}),
      },
      message: `ask ${named} to review revision ${body.revision.slice(0, 7)}${body.text ? `: ${clip(body.text)}` : ""}`,
    }),
  );
}

/** Everyone who could be asked: local accounts and allow-listed sign-ins, by id, with their role. */
export async function reviewersByName(): Promise<Map<string, RequestedReviewer>> {
  const people = new Map<string, RequestedReviewer>();
  for (const a of await listAccounts()) people.set(a.name, { id: a.name, name: a.name, role: a.role });
  for (const e of config().auth.allow) {
    const id = `${e.provider}:${e.identity}`;
    people.set(id, { id, name: e.identity, role: e.role });
  }
  return people;
}

/** The reviewers an author can pick from (the studio's form), by name. */
export async function listReviewers(): Promise<{ id: string; name: string }[]> {
  return [...(await reviewersByName()).values()].filter((r) => r.role === "reviewer").map(({ id, name }) => ({ id, name }));
}
