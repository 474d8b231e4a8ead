import { NOTE_ID } from "@/lib/notes/schema";

/**
 * Where notes live in the content repository: published on main, drafts one branch each, reviews
 * one ref each. The studio and the review module both read this layer; neither imports the other's.
 */

export const MAIN_REF = "refs/heads/main";
export const DRAFTS_PREFIX = "refs/heads/drafts/";
export const REVIEWS_PREFIX = "refs/reviews/";
/** Approved draft revisions a publish took, kept reachable so a mirror clone can check the approval. */
export const APPROVED_PREFIX = "refs/approved/";

export const draftRef = (id: string) => `${DRAFTS_PREFIX}${id}`;
export const reviewRef = (id: string) => `${REVIEWS_PREFIX}${id}`;
export const approvedRef = (id: string, revision: string) => `${APPROVED_PREFIX}${id}/${revision}`;
export const notePath = (id: string) => `notes/${id}.md`;

/** The note id a draft branch is for, or null for a branch that is not one. */
export function idOfDraftRef(ref: string): string | null {
  const id = ref.startsWith(DRAFTS_PREFIX) ? ref.slice(DRAFTS_PREFIX.length) : "";
  return NOTE_ID.test(id) ? id : null;
}
