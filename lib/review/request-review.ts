import "server-only";
import type { StudioActor } from "@/lib/rules/identity";
import { displayNameOf } from "@/lib/auth/account-file";
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
  // A request names each reviewer as people see them (the display name); the id stays what is matched on.
  const reviewers: RequestedReviewer[] = body.reviewers.map((name) => {
    const person = known.get(name);
    return person ? { id: person.id, name: person.displayName, role: person.role } : { id: name, name, role: null };
  });
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

/**
 * A person as the studio lists them: `name` is what a mention or a request names them by (an
 * account's login, an allow-listed identity), `displayName` what people see (the account's display
 * name, else that name).
 */
export type StudioPerson = { id: string; name: string; displayName: string };

/** Everyone who could be asked: local accounts and allow-listed sign-ins, by id, with their role. */
export async function reviewersByName(): Promise<Map<string, RequestedReviewer & { displayName: string }>> {
  const people = new Map<string, RequestedReviewer & { displayName: string }>();
  for (const a of await listAccounts()) people.set(a.name, { id: a.name, name: a.name, displayName: displayNameOf(a), role: a.role });
  for (const e of config().auth.allow) {
    const id = `${e.provider}:${e.identity}`;
    people.set(id, { id, name: e.identity, displayName: e.identity, role: e.role });
  }
  return people;
}

/** The reviewers an author can pick from (the studio's form), by display name (then login). */
export async function listReviewers(): Promise<StudioPerson[]> {
  return [...(await reviewersByName()).values()]
    .filter((r) => r.role === "reviewer")
    .map(({ id, name, displayName }) => ({ id, name, displayName }))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.name.localeCompare(b.name));
}
