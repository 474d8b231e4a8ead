import { BOUNDARY_LABEL, noteSchema, SECTIONS, STATUS_LABEL, STATUSES, type Boundary, type Note, type SectionKey, type Status } from "@/lib/notes/schema";

/**
 * The status machine: which status changes a note may make, and what each one requires. Pure
 * data and functions (no I/O), so the studio's buttons, the API's enforcement, the CLI checker and
 * the review module all give the same answer, and every answer lists everything still missing.
 */

export type Role = "author" | "reviewer";
export type Actor = { id: string; role: Role };

/**
 * Review data as the review module derives it: each reviewer's latest verdict per revision, oldest
 * first. `withdrawn` marks a request for changes its reviewer took back; `name` is for messages.
 */
export type ReviewState = {
  verdicts: { reviewer: string; revision: string; verdict: "approve" | "request-changes"; withdrawn?: boolean; name?: string; at?: string }[];
};

export type TransitionInput = {
  note: Note;
  to: Status;
  /** Commit id of the revision being promoted: the current head of the draft. */
  revision: string;
  /** Accounts that wrote the note's draft revisions; none of them may be its approver. */
  revisionAuthors: string[];
  reviews: ReviewState;
  actor: Actor;
  /** Why: for a retraction (or a supersede note). */
  reason?: string;
  /** Ids of the notes published on main, for `superseded_by`. */
  publishedIds: ReadonlySet<string>;
  /** How many reviewers must approve a promotion (REVIEW_APPROVALS); 1 unless set. */
  requiredApprovals?: number;
};

export type TransitionVerdict = { allowed: boolean; unmet: string[] };
export type TransitionAction = { to: Status; label: string };

/** A requirement answers with what is still missing, in words a writer understands ([] = met). */
type Requirement = (input: TransitionInput) => string[];

type Route = { allowed: true; label: string; requires: Requirement[] } | { allowed: false; why: string };

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<SectionKey, string>;
const short = (revision: string) => revision.slice(0, 7);
const unique = <T>(xs: T[]): T[] => [...new Set(xs)];

// ---- requirements ----------------------------------------------------------------------------

const byAuthor: Requirement = ({ actor }) => (actor.role === "author" ? [] : ["only authors change a note's status"]);

const filled =
  (...keys: SectionKey[]): Requirement =>
  ({ note }) =>
    keys.filter((k) => note.sections[k].trim() === "").map((k) => `the ${HEADING[k]} section is empty`);

/** Reviewers (not among `authors`) whose approval of exactly `revision` stands. */
export const approversOf = (revision: string, authors: readonly string[], reviews: ReviewState): string[] =>
  unique(reviews.verdicts.filter((v) => v.verdict === "approve" && v.revision === revision && !authors.includes(v.reviewer)).map((v) => v.reviewer));

/**
 * What is missing for `revision` to count as approved: `required` approvals of exactly that
 * revision by reviewers who wrote none of it. A later edit is something no reviewer has read.
 */
export function missingApprovals(revision: string, authors: readonly string[], reviews: ReviewState, required = 1): string[] {
  if (revision.trim() === "") return ["the revision being promoted is not known; save the note and try again"];
  const need = Math.max(1, required);
  const have = approversOf(revision, authors, reviews);
  if (have.length >= need) return [];

  const rev = short(revision);
  const approvals = reviews.verdicts.filter((v) => v.verdict === "approve");
  const unmet =
    need === 1
      ? [`no approval of revision ${rev} by a reviewer other than its authors`]
      : [`${have.length} of the ${need} approvals of revision ${rev} this archive requires (REVIEW_APPROVALS) by reviewers other than its authors`];
  const selfApprovers = unique(approvals.filter((v) => v.revision === revision && authors.includes(v.reviewer)).map((v) => v.reviewer));
  if (selfApprovers.length) {
    unmet.push(`an approval by its own author does not count (${selfApprovers.join(", ")} wrote this note)`);
  }
  const earlier = unique(approvals.filter((v) => v.revision !== revision && !authors.includes(v.reviewer)).map((v) => short(v.revision)));
  if (earlier.length) {
    unmet.push(`an approval of an earlier revision (${earlier.join(", ")}) does not cover ${rev}; ask for a review of the current revision`);
  }
  return unmet;
}

const approvedByAnotherReviewer: Requirement = ({ revision, revisionAuthors, reviews, requiredApprovals }) =>
  missingApprovals(revision, revisionAuthors, reviews, requiredApprovals);

export type ChangeRequest = { reviewer: string; name: string; revision: string; at?: string };

/**
 * The requests for changes that still stand: a reviewer's latest verdict on the note (on any of its
 * revisions) asks for changes and was not withdrawn. A new save does not answer it; only that
 * reviewer does, by approving a later revision or withdrawing the request.
 */
export function openChangeRequests(reviews: ReviewState): ChangeRequest[] {
  const latest = new Map<string, ReviewState["verdicts"][number]>();
  const ordered = reviews.verdicts.map((v, i) => ({ v, i })).sort((a, b) => (a.v.at ?? "").localeCompare(b.v.at ?? "") || a.i - b.i);
  for (const { v } of ordered) latest.set(v.reviewer, v);
  return [...latest.values()]
    .filter((v) => v.verdict === "request-changes" && !v.withdrawn)
    .map((v) => ({ reviewer: v.reviewer, name: v.name ?? v.reviewer, revision: v.revision, ...(v.at ? { at: v.at } : {}) }));
}

/** Said of a standing request for changes, wherever it holds something back. */
export const changeRequestMessage = (r: ChangeRequest) =>
  `${r.name} requested changes on revision ${short(r.revision)} and has not approved a later revision or withdrawn the request; make the changes and ask ${r.name} for a review, or ask them to withdraw it`;

const noOpenChangeRequests: Requirement = ({ reviews }) => openChangeRequests(reviews).map(changeRequestMessage);

const supersededByPublished: Requirement = ({ note, publishedIds }) => {
  const by = note.superseded_by;
  if (!by) return ["name the note that replaces this one (superseded by)"];
  if (by === note.id) return ["a note cannot supersede itself"];
  if (!publishedIds.has(by)) return [`${by} is not a published note; a note is superseded only by a published one`];
  return [];
};

const retractionReason: Requirement = ({ note, reason }) =>
  reason?.trim() || note.retraction_reason?.trim() ? [] : ["a retraction needs a reason, which readers will see"];

/** Retracting or superseding tells readers something about a note they could read; a draft never published is discarded instead. */
const published: Requirement = ({ note, publishedIds }) =>
  publishedIds.has(note.id) ? [] : [`${note.id} was never published, so no reader needs to be told: discard the draft instead`];

/** Going back to draft is only a change of mind before anyone could read the note. */
const notYetPublished: Requirement = ({ note, publishedIds }) =>
  publishedIds.has(note.id) ? [`${note.id} is already published; a published note does not go back to draft: retract it with a reason, or supersede it`] : [];

// What hypothesis → verified asks for: the whole record, approved as it stands now.
const VERIFICATION = [filled("decision", "invariant", "rejectedShortcut", "evidence", "claimBoundary"), approvedByAnotherReviewer, noOpenChangeRequests];

// ---- the table: every (from, to) pair, in one place -------------------------------------------

const allow = (label: string, ...requires: Requirement[]): Route => ({ allowed: true, label, requires });
const refuse = (why: string): Route => ({ allowed: false, why });
const stay = (s: Status): Route => refuse(`the note is already ${STATUS_LABEL[s]}`);

const UNVERIFY = "a verified result is not un-verified: supersede it with a newer note, or retract it with a reason";
const NEVER_PUBLISHED = "a draft was never published";
const SUPERSEDED_FINAL = "a superseded note is final: readers are sent to the note that replaced it (retract it if its claims no longer stand)";
// A retraction tells readers and agents to stop relying on a note; reviving it in place would
// silently bring back claims they were told to drop. A corrected result is a new note.
const RETRACTED_FINAL = "a retracted note is final: write a new note instead";

export const STATUS_MACHINE: { readonly [F in Status]: { readonly [T in Status]: Route } } = {
  draft: {
    draft: stay("draft"),
    hypothesis: allow("Propose as hypothesis", filled("invariant", "claimBoundary")),
    // The seed's verified notes arrive already verified (imported, provenance seed-index); they
    // are not transitions. A new note goes through hypothesis, which costs one extra click (the
    // hypothesis need not be published in between) and keeps one road to verified.
    "verified-checkpoint": refuse(`${NEVER_PUBLISHED} as a hypothesis: propose it as a hypothesis first, then promote it once a reviewer approves it`),
    "verified-structural": refuse(`${NEVER_PUBLISHED} as a hypothesis: propose it as a hypothesis first, then promote it once a reviewer approves it`),
    superseded: refuse(`${NEVER_PUBLISHED}, so no reader needs to be sent elsewhere: only a published note is superseded`),
    retracted: refuse(`${NEVER_PUBLISHED}, so there is nothing to retract`),
  },
  hypothesis: {
    draft: allow("Return to draft", notYetPublished),
    hypothesis: stay("hypothesis"),
    "verified-checkpoint": allow("Promote to verified checkpoint", ...VERIFICATION),
    "verified-structural": allow("Promote to verified structural decision", ...VERIFICATION),
    // A plan can be replaced by a later plan or result; readers are better sent on than told it was withdrawn.
    superseded: allow("Supersede…", published, supersededByPublished),
    retracted: allow("Retract…", published, retractionReason),
  },
  // Checkpoint and structural are different claims (holds at a pinned state vs. the structure is
  // proven); changing which one a note makes is a new claim, so it needs a fresh approval of the
  // revision that makes it, exactly as a promotion does.
  "verified-checkpoint": {
    draft: refuse(UNVERIFY),
    hypothesis: refuse(UNVERIFY),
    "verified-checkpoint": stay("verified-checkpoint"),
    "verified-structural": allow("Reclassify as verified structural decision", ...VERIFICATION),
    superseded: allow("Supersede…", supersededByPublished),
    retracted: allow("Retract…", retractionReason),
  },
  "verified-structural": {
    draft: refuse(UNVERIFY),
    hypothesis: refuse(UNVERIFY),
    "verified-checkpoint": allow("Reclassify as verified checkpoint", ...VERIFICATION),
    "verified-structural": stay("verified-structural"),
    superseded: allow("Supersede…", supersededByPublished),
    retracted: allow("Retract…", retractionReason),
  },
  // Superseding says "read the newer note"; a superseded note can still turn out wrong, and then
  // readers deserve the stronger signal, so retraction stays open.
  superseded: {
    draft: refuse(SUPERSEDED_FINAL),
    hypothesis: refuse(SUPERSEDED_FINAL),
    "verified-checkpoint": refuse(SUPERSEDED_FINAL),
    "verified-structural": refuse(SUPERSEDED_FINAL),
    superseded: stay("superseded"),
    retracted: allow("Retract…", retractionReason),
  },
  retracted: {
    draft: refuse(RETRACTED_FINAL),
    hypothesis: refuse(RETRACTED_FINAL),
    "verified-checkpoint": refuse(RETRACTED_FINAL),
    "verified-structural": refuse(RETRACTED_FINAL),
    superseded: refuse(RETRACTED_FINAL),
    retracted: stay("retracted"),
  },
};

// ---- verdicts ----------------------------------------------------------------------------------

const verdict = (unmet: string[]): TransitionVerdict => ({ allowed: unmet.length === 0, unmet });
const isStatus = (s: unknown): s is Status => (STATUSES as readonly unknown[]).includes(s);

export function checkTransition(input: TransitionInput): TransitionVerdict {
  const from: unknown = input.note.status;
  const to: unknown = input.to;
  // Callers from the API pass what a request said; a bad word is an answer, not a crash.
  if (!isStatus(from) || !isStatus(to)) {
    return verdict([...byAuthor(input), `unknown status "${String(isStatus(from) ? to : from)}"; the statuses are ${STATUSES.join(", ")}`]);
  }
  const route = STATUS_MACHINE[from][to];
  const unmet = byAuthor(input);
  if (!route.allowed) unmet.push(route.why);
  else for (const requirement of route.requires) unmet.push(...requirement(input));
  return verdict(unmet);
}

/** The status changes the studio offers from `from` (each still checked by checkTransition). */
export function actionsFrom(from: Status): TransitionAction[] {
  if (!isStatus(from)) return [];
  const row = STATUS_MACHINE[from];
  // Moves forward first, the step back to draft last.
  const order = [...STATUSES.filter((s) => s !== "draft"), "draft"] as const;
  return order.flatMap((to) => {
    const route = row[to];
    return route.allowed ? [{ to, label: route.label }] : [];
  });
}

/** A boundary is a hard limit readers and agents rely on: adding one is free, dropping one needs a why. */
export function checkBoundaryChange(before: Boundary[], after: Boundary[], reason?: string): TransitionVerdict {
  const removed = unique(before.filter((b) => !after.includes(b)));
  if (removed.length === 0 || reason?.trim()) return verdict([]);
  return verdict(removed.map((b) => `removing the "${BOUNDARY_LABEL[b] ?? b}" boundary needs a reason`));
}

/** Publishing: a published status and a valid note. Archive-policy findings are the caller's check. */
export function checkPublish(note: Note): TransitionVerdict {
  const unmet: string[] = [];
  if (note.status === "draft") unmet.push("a draft is not published: propose it as a hypothesis first");
  const parsed = noteSchema.safeParse(note);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const where = issue.path[0] === "sections" ? (HEADING[issue.path[1] as SectionKey] ?? "sections") : issue.path.map(String).join(".") || "note";
      // Most schema messages already name their field ("title is empty"); name it where they do not.
      unmet.push(issue.message.toLowerCase().startsWith(where.toLowerCase()) ? issue.message : `${where}: ${issue.message}`);
    }
  }
  if (note.status === "superseded" && !note.superseded_by) unmet.push("a superseded note must name the note that replaces it");
  if (note.status === "retracted" && !note.retraction_reason?.trim()) unmet.push("a retracted note must say why it was retracted");
  return verdict(unmet);
}
