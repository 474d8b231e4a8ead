import { NOTE_ID } from "@/lib/notes/schema";
import { DEFAULT_BRANCH } from "@/lib/store/default-branch";

/**
 * Where notes live in the content repository: published on main, drafts one branch each, reviews
 * one ref each. The studio and the review module both read this layer; neither imports the other's.
 * The only module that spells these ref names (eslint.config.mjs refuses the literals elsewhere).
 */

/** What is published. The store seeds a repository on this branch, so it is the store's default branch. */
export const MAIN_REF = DEFAULT_BRANCH;
export const DRAFTS_PREFIX = "refs/heads/drafts/";
export const REVIEWS_PREFIX = "refs/reviews/";
/** Approved draft revisions a publish took, kept reachable so a mirror clone can check the approval. */
export const APPROVED_PREFIX = "refs/approved/";

/**
 * Discarded drafts (`refs/discarded/<id>/<last revision>`): the last revision, kept reachable so
 * the story is not lost, and, for a note never published, so its id is never given to another note.
 */
export const DISCARDED_PREFIX = "refs/discarded/";

/**
 * Imports (`npm run import`): each lands on a branch of its own, never on main, until published.
 * While one is being written its commits sit on a work ref (which travels nowhere), so a failure
 * midway leaves every branch as it was.
 */
export const IMPORTS_PREFIX = "refs/heads/imports/";
export const IMPORT_WORK_PREFIX = "refs/import-work/";
export const importRef = (name: string) => `${IMPORTS_PREFIX}${name}`;
export const importWorkRef = (name: string) => `${IMPORT_WORK_PREFIX}${name}`;

/**
 * The last commit of main whose events (webhooks, WebSub pings, mail) were announced: moved by
 * compare-and-swap from the commit it holds to a newer one by whoever announces that range (the
 * studio for its own write, lib/events for commits it did not make), so a range is announced once
 * across restarts and instances (docs/decisions/events-from-main-moves.md).
 */
export const ANNOUNCED_PREFIX = "refs/announced/";
export const ANNOUNCED_MAIN_REF = `${ANNOUNCED_PREFIX}main`;

/** What travels with the content to and from a git remote: branches (main, drafts), review records, kept approvals, discarded drafts, the announced marker. */
export const CONTENT_NAMESPACES = ["refs/heads/", REVIEWS_PREFIX, APPROVED_PREFIX, DISCARDED_PREFIX, ANNOUNCED_PREFIX];

/** "main is missing": a content repository always has main once seeded; without it nothing can be read or published. */
export const noMain = () => new Error(`the content repository has no ${MAIN_REF}`);

export const draftRef = (id: string) => `${DRAFTS_PREFIX}${id}`;
export const reviewRef = (id: string) => `${REVIEWS_PREFIX}${id}`;
export const approvedRef = (id: string, revision: string) => `${APPROVED_PREFIX}${id}/${revision}`;
export const discardedRef = (id: string, revision: string) => `${DISCARDED_PREFIX}${id}/${revision}`;
/** The note id a discarded draft's ref is for. */
export const idOfDiscardedRef = (ref: string): string | null => {
  const id = ref.startsWith(DISCARDED_PREFIX) ? (ref.slice(DISCARDED_PREFIX.length).split("/")[0] ?? "") : "";
  return NOTE_ID.test(id) ? id : null;
};
export const notePath = (id: string) => `notes/${id}.md`;

/** The note id a draft branch is for, or null for a branch that is not one. */
export function idOfDraftRef(ref: string): string | null {
  const id = ref.startsWith(DRAFTS_PREFIX) ? ref.slice(DRAFTS_PREFIX.length) : "";
  return NOTE_ID.test(id) ? id : null;
}
