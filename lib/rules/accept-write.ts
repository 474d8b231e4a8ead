import { isPublishedStatus, noteSchema, SECTIONS, STATUS_LABEL, type Note, type NoteInput } from "@/lib/notes/schema";
import { sectionShapeProblems } from "@/lib/notes/section-shape";
import { phaseTitle, type Phase } from "@/lib/phases/schema";
import { slug, tagHasPage } from "@/lib/web/urls";
import { scanNote, type PolicyRule } from "./archive-policy";
import {
  changeRequestMessage,
  checkBoundaryChange,
  checkPublish,
  checkTransition,
  missingApprovals,
  openChangeRequests,
  type Actor,
  type ReviewState,
} from "./status-machine";
import { listOfLabels, verifiedChanges } from "./verified-change";
import { affectsProblems } from "./affects";
import { checkDiagrams } from "./diagrams";
import { checkImages, type AssetContext } from "./images";
import type { EditorialOrders } from "./editorial-order";
import { checkNotePhase, checkPhaseChange, isVerifiedStatus, type PhaseNoteFact } from "./phase-closeout";
import { REVIEW_WRITE_KINDS, reviewFindings, type ReviewWrite, type ReviewWriteKind } from "./review-write";

/**
 * The acceptance function: every write to the content repository — by the studio or by plain git,
 * as content:check sees it — is one call here, and the answer lists every finding, not the first.
 * Pure (no files, no refs, no clock): the caller loads the context once and passes it in, so the
 * studio and the checker cannot disagree about a write they both see.
 */

export type NoteWriteKind = "create" | "save" | "status-change" | "publish";
export type PhaseWriteKind = "phase-create" | "phase-rename" | "phase-close" | "phase-reopen" | "phase-edit";
export type WriteKind = NoteWriteKind | PhaseWriteKind | ReviewWriteKind;
export type { ReviewWrite, ReviewWriteContext, ReviewWriteKind } from "./review-write";

/** Which rule a finding comes from; each lives in one module of lib/rules (see ARCHITECTURE.md). */
export type Rule =
  | "role"
  | "schema"
  | "phase"
  | "boundary"
  | "archive-policy"
  | "images"
  // a Mermaid diagram too large to draw (./diagrams.ts: links after & groups are expanded, nodes)
  | "diagrams"
  // an `affects` glob that matches every path (./affects.ts)
  | "affects"
  | "status"
  | "review"
  // a published change to a verified note's substance without the approval it needs (./verified-change.ts)
  | "verified-change"
  // a note landing on main with an editorial order another note there holds
  | "order"
  | "closeout"
  // review writes (./review-write.ts): a verdict by an author of the note, a note with nothing to review,
  // a revision that is not the one named, a quote not in its section, a thread or comment that is not there or not yours
  | "self-review"
  | "reviewable"
  | "revision"
  | "anchor"
  | "thread"
  | "comment"
  | "verdict"
  | "reviewer";

/** One reason a write is refused: the field it is about, the line within that field's text when known. */
export type WriteFinding = {
  rule: Rule;
  field: string;
  message: string;
  line?: number;
  column?: number;
  /** For archive-policy findings: which policy rule, and the text it found. */
  policy?: PolicyRule;
  excerpt?: string;
};

export type Acceptance = { allowed: boolean; findings: WriteFinding[] };

/** The review of the revision a write is judged on (a promotion's draft head, or the approved revision a publish carries). */
export type RevisionReview = {
  revision: string;
  revisionAuthors: readonly string[];
  verdicts: ReviewState["verdicts"];
  /** The draft head a publish takes, when it is not `revision` (a promotion commit after the approved revision). */
  draftHead?: string;
};

export type NoteWriteContext = {
  /** Names of the phases on main; empty for an archive without phase files (then any phase is accepted). */
  phases: readonly string[];
  /** Notes published on main before this write. */
  publishedIds: ReadonlySet<string>;
  /**
   * The editorial order of the notes on main where a publish lands (order → id). A note new to main,
   * or one whose order changes, must take an order no other note there holds. Without it the order is not checked.
   */
  orders?: EditorialOrders;
  /** Every note id with a file on main, whatever its status: the notes a publish may name as related. Without it that is not checked. */
  noteIds?: ReadonlySet<string>;
  /** The note as main holds it before this write (null when it is not on main). */
  onMain: Note | null;
  review: RevisionReview;
  /** Why: a retraction's or a boundary removal's reason (from the request, or a `Reason:` trailer). */
  reason?: string;
  /** Approvals a promotion or a verified change needs (REVIEW_APPROVALS); 1 unless set. */
  requiredApprovals?: number;
  /**
   * The images the note references, as found in the repository (lib/assets/note-assets.ts). Without
   * it only the note's text is checked (alt text, where each image lives); saves, publishes and
   * content:check always pass it.
   */
  assets?: AssetContext;
};

export type NoteWrite = {
  kind: NoteWriteKind;
  /** The note before the write on the line it is written to (null: a new note). */
  before: Note | null;
  /** The note the write would store (not yet validated: the schema is one of the rules). */
  after: NoteInput;
  actor: Actor;
  context: NoteWriteContext;
};

export type PhaseWriteContext = {
  /** When each note of the phase became verified on main: the closeout rule's facts. */
  facts: readonly PhaseNoteFact[];
  /** The phases main holds (a new phase's name and slug, a renamed phase's title, must be its own). */
  phases?: readonly Pick<Phase, "name" | "slug" | "title">[];
};

export type PhaseWrite = { kind: PhaseWriteKind; before: Phase | null; after: Phase; actor: Actor; context: PhaseWriteContext };

/** A no-delta record must be words, not a shrug. */
export const NO_DELTA_MIN = 20;

/**
 * What a note's text alone decides (the schema, section shapes, tags, affects, diagrams, the archive
 * policy), kept per note object by a caller that judges the same parsed note again and again:
 * content:check over a long history hands the same object for the same blob at every commit. The
 * findings are the same as without it; a caller that changes a note object after judging it must not
 * pass the memo.
 */
export type NoteTextMemo = WeakMap<object, Promise<TextFindings>>;
export const noteTextMemo = (): NoteTextMemo => new WeakMap();

export async function acceptWrite(write: NoteWrite | PhaseWrite | ReviewWrite, options: { textMemo?: NoteTextMemo } = {}): Promise<Acceptance> {
  const findings = isReviewWrite(write)
    ? await reviewFindings(write)
    : isPhaseWrite(write)
      ? phaseFindings(write)
      : await noteFindings(write, options.textMemo);
  return { allowed: findings.length === 0, findings };
}

const isPhaseWrite = (w: NoteWrite | PhaseWrite): w is PhaseWrite => w.kind.startsWith("phase-");
const isReviewWrite = (w: NoteWrite | PhaseWrite | ReviewWrite): w is ReviewWrite => (REVIEW_WRITE_KINDS as readonly string[]).includes(w.kind);

// ---- notes -------------------------------------------------------------------------------------

async function noteFindings({ kind, before, after: input, actor, context }: NoteWrite, memo?: NoteTextMemo): Promise<WriteFinding[]> {
  const findings: WriteFinding[] = [];
  if (actor.role !== "author") findings.push({ rule: "role", field: "note", message: "only authors write notes" });

  const text = await textFindingsOf(input, memo);
  if (!text.ok) {
    findings.push(...copies(text.schema));
    // The phase rule still reads the phase field; the policy scans only a note the schema accepts.
    if (typeof input.phase === "string") findings.push(...phaseOf(input as Pick<Note, "phase">, context));
    return findings;
  }
  const after = text.note;
  findings.push(...copies(text.shape));
  findings.push(...phaseOf(after, context));
  findings.push(...copies(text.tags));
  findings.push(...copies(text.affects));

  if (kind === "create" && after.status !== "draft") findings.push({ rule: "status", field: "status", message: "a new note starts as a draft" });
  if (kind === "save" && before && before.status !== after.status) {
    findings.push({ rule: "status", field: "status", message: "a save does not change a note's status; use a status change" });
  }
  // A boundary readers already rely on (published on main) is removed only with a reason.
  if ((kind === "save" || kind === "status-change") && before && context.onMain && isPublishedStatus(context.onMain.status)) {
    findings.push(...boundaryOf(before, after, context.reason));
  }
  if (kind === "status-change" && before) findings.push(...transition(before, after, actor, context, "status-change"));
  if (kind === "publish") findings.push(...publishOf(before, after, actor, context));

  // Every image has alt text and is one of the note's own, checked files (lib/rules/images.ts).
  for (const f of checkImages(after, context.assets)) findings.push({ rule: "images", ...f });
  findings.push(...copies(text.diagrams));
  findings.push(...copies(text.policy));
  return findings;
}

/** The findings a note's text decides on its own, in the order noteFindings lists them. */
export type TextFindings =
  | { ok: false; schema: WriteFinding[] }
  | { ok: true; note: Note; shape: WriteFinding[]; tags: WriteFinding[]; affects: WriteFinding[]; diagrams: WriteFinding[]; policy: WriteFinding[] };

function textFindingsOf(input: NoteInput, memo: NoteTextMemo | undefined): Promise<TextFindings> {
  if (!memo) return textFindings(input);
  let found = memo.get(input);
  if (!found) memo.set(input, (found = textFindings(input)));
  return found;
}

async function textFindings(input: NoteInput): Promise<TextFindings> {
  const parsed = noteSchema.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      schema: parsed.error.issues.map((issue) => ({ rule: "schema", field: fieldOf(issue.path), message: issue.message, ...lineOf(issue) })),
    };
  }
  const note = parsed.data;
  const tags: WriteFinding[] = note.tags
    .filter((tag) => !tagHasPage(tag))
    .map((tag) => ({
      rule: "schema",
      field: "tags",
      message: `the tag ${JSON.stringify(tag)} has no page of its own: its address would be /tags/${slug(tag)}, which browsers read as a folder, not a page; name it with a letter or digit`,
    }));
  return {
    ok: true,
    note,
    shape: shapeOf(note),
    tags,
    affects: affectsProblems(note.affects).map((p) => ({ rule: "affects", field: "affects", message: p.message })),
    // Every ```mermaid block within the limits the pages draw (lib/rules/diagrams.ts).
    diagrams: checkDiagrams(note).map((f) => ({ rule: "diagrams", ...f })),
    policy: (await scanNote(note)).map((f) => ({
      rule: "archive-policy",
      field: f.field,
      line: f.line,
      column: f.column,
      policy: f.rule,
      message: f.message,
      excerpt: f.excerpt,
    })),
  };
}

/** A memo's findings are handed out as copies: a caller may change what it is given. */
const copies = (findings: readonly WriteFinding[]) => findings.map((f) => ({ ...f }));

/**
 * Section text the parser cannot be trusted with (too deep, too many marks in a paragraph) or that
 * splits lines differently for different readers (lib/notes/section-shape.ts). Checked on writes,
 * not by the schema: a note already in git with such text stays readable, shown as plain text.
 */
function shapeOf(note: Note): WriteFinding[] {
  return SECTIONS.flatMap(({ key, heading }) =>
    sectionShapeProblems(heading, note.sections[key]).map((p) => ({ rule: "schema" as const, field: `sections.${key}`, line: p.line, message: p.message })),
  );
}

function phaseOf(note: Pick<Note, "phase">, { phases }: NoteWriteContext): WriteFinding[] {
  if (phases.length === 0) return [];
  return checkNotePhase(
    note,
    phases.map((name) => ({ name })),
  ).map((message) => ({ rule: "phase", field: "phase", message }));
}

function boundaryOf(before: Note, after: Note, reason: string | undefined): WriteFinding[] {
  return checkBoundaryChange(before.boundaries, after.boundaries, reason).unmet.map((message) => ({ rule: "boundary", field: "boundaries", message }));
}

/**
 * A status change judged by the status machine. `before` carries the status moved from; the
 * machine reads the rest (sections, superseded_by, retraction_reason) from the note as it will be.
 */
function transition(before: Note, after: Note, actor: Actor, ctx: NoteWriteContext, as: "status-change" | "publish"): WriteFinding[] {
  if (before.status === after.status) return [];
  const verdict = checkTransition({
    note: { ...after, status: before.status },
    to: after.status,
    revision: ctx.review.revision,
    revisionAuthors: [...ctx.review.revisionAuthors],
    reviews: { verdicts: [...ctx.review.verdicts] },
    actor,
    reason: ctx.reason,
    publishedIds: ctx.publishedIds,
    ...(ctx.requiredApprovals ? { requiredApprovals: ctx.requiredApprovals } : {}),
  });
  const prefix = as === "publish" ? `${before.status} → ${after.status}: ` : "";
  // The role is this function's own first finding; the machine repeats it.
  return verdict.unmet
    .filter((m) => m !== "only authors change a note's status")
    .map((message) => ({ rule: /approv|requested changes|revision/.test(message) ? "review" : "status", field: "status", message: prefix + message }));
}

/**
 * Landing on main. The note must be publishable as it stands; a status that differs from main's
 * is a transition held to the machine, from main's status — or, for a note new to main, along the
 * only road the app offers (a draft proposed as hypothesis on its branch, then promoted).
 */
function publishOf(before: Note | null, after: Note, actor: Actor, ctx: NoteWriteContext): WriteFinding[] {
  const findings: WriteFinding[] = [];
  // A plain-git retraction may give its reason as a `Reason:` trailer instead of in the file.
  const published = checkPublish(ctx.reason && !after.retraction_reason ? { ...after, retraction_reason: ctx.reason } : after);
  for (const message of published.unmet) findings.push({ rule: "status", field: "status", message });
  // A reviewer's request for changes holds the publish back until that reviewer approves a later revision or withdraws it.
  for (const request of openChangeRequests(ctx.review)) {
    findings.push({ rule: "review", field: "status", message: `publishing waits: ${changeRequestMessage(request)}` });
  }
  if (after.status === "draft") return findings;
  // Main's gate refuses the landing of a related note that does not exist: refused here, before it is written.
  const noteIds = ctx.noteIds;
  if (noteIds) findings.push(...missingRelated(after, (id) => noteIds.has(id)));
  const onMain = ctx.onMain;
  findings.push(...orderOf(onMain, after, ctx));
  if (onMain) {
    findings.push(...transition(onMain, after, actor, ctx, "publish"));
    findings.push(...boundaryOf(onMain, after, ctx.reason));
    findings.push(...verifiedChangeOf(onMain, after, ctx));
  } else {
    const proposed = { ...after, status: "draft" as const };
    findings.push(...transition(proposed, { ...after, status: "hypothesis" }, actor, ctx, "publish").map(fromDraft));
    if (after.status !== "hypothesis") findings.push(...transition({ ...after, status: "hypothesis" }, after, actor, ctx, "publish"));
  }
  return findings;
}

/** The notes `note` names as related that do not `exist`: each a broken link on every page that lists it. */
export function missingRelated(note: Pick<NoteInput, "id" | "related">, exists: (id: string) => boolean): WriteFinding[] {
  const related: string[] = Array.isArray(note.related) ? note.related : [];
  return related
    .filter((id) => id !== note.id && !exists(id))
    .map((id) => ({ rule: "schema", field: "related", message: `related note ${id} does not exist` }));
}

/** How a note published on main can leave main's tree in one commit. */
export type Departure = { how: "deleted" } | { how: "unreadable"; problem: string } | { how: "draft" };

/**
 * A published note stays in the archive: it leaves the public view only by being retracted with a
 * reason or superseded, which keep its record and say why. A commit on main that deletes its file,
 * breaks it, or makes it a draft would unpublish it with no review (the studio offers none of
 * these), so the commit is refused and main is served as it was until the file is put back.
 */
export function departureOf(onMain: Pick<Note, "id" | "status">, departure: Departure): WriteFinding {
  const what = `${onMain.id} is published (${STATUS_LABEL[onMain.status]})`;
  const way = "a published note leaves only by being retracted with a reason or superseded, which keep its record";
  const message =
    departure.how === "deleted"
      ? `${what} and this commit deletes its file: ${way}. Put the file back`
      : departure.how === "unreadable"
        ? `${what} and its file no longer reads as ${onMain.id} (${departure.problem}): fix the file; ${way}`
        : `${what}, and a published note does not go back to draft: retract it with a reason, or supersede it`;
  return { rule: "status", field: departure.how === "draft" ? "status" : "note", message };
}

/**
 * A phase stays once it exists: the studio renames, closes and reopens phases, never deletes one,
 * since its notes name it and a closed phase's file is its closeout record.
 */
export function phaseRemovalOf(name: string): WriteFinding {
  return {
    rule: "phase",
    field: "name",
    message: `this commit deletes phase "${name}": a phase is renamed, closed or reopened, never deleted (its notes name it, and a closed phase's file is its closeout record). Put the file back`,
  };
}

/** "All decision records" is one editorial order: a note new to main, or moved in it, takes a place no other note holds. */
function orderOf(onMain: Note | null, after: Note, ctx: NoteWriteContext): WriteFinding[] {
  if (!ctx.orders || onMain?.order === after.order) return [];
  const holder = ctx.orders.get(after.order)?.find((id) => id !== after.id);
  if (holder === undefined) return [];
  return [
    {
      rule: "order",
      field: "order",
      message: `order ${after.order} is ${holder}'s place in the editorial order: a note new to main takes the next free order, and a note keeps its own`,
    },
  ];
}

const fromDraft = (f: WriteFinding): WriteFinding => ({ ...f, message: `${f.message} (a new note is proposed as a hypothesis first)` });

/**
 * A published change to what a verified note says needs an approval of exactly the revision that
 * lands, by reviewers who wrote none of it, as a promotion does (./verified-change.ts says which
 * fields are substance). A promotion or reclassification is judged by the status machine instead.
 */
function verifiedChangeOf(onMain: Note, after: Note, ctx: NoteWriteContext): WriteFinding[] {
  const changes = verifiedChanges(onMain, after);
  if (changes.length === 0) return [];
  const missing = missingApprovals(ctx.review.revision, ctx.review.revisionAuthors, { verdicts: [...ctx.review.verdicts] }, ctx.requiredApprovals);
  if (missing.length === 0) return [];
  const first = changes[0];
  const what = listOfLabels(changes);
  return [
    {
      rule: "verified-change",
      field: first?.field ?? "note",
      message: `${after.id} is verified, and this changes its ${what}: a change to a verified note is published only with a reviewer's approval of that exact revision (${missing.join("; ")}). Ask a reviewer for a review of this revision, or publish the change as a new hypothesis that supersedes ${after.id}`,
    },
  ];
}

/** A move to, or between, verified statuses: the status machine's promotion, approved like one. */
const promotes = (onMain: Pick<Note, "status"> | null, after: Pick<Note, "status">) => isVerifiedStatus(after.status) && onMain?.status !== after.status;

/** Does landing `after` where main holds `onMain` need a reviewer's approval? (A promotion, or a change to a verified note's substance.) */
export function needsApproval(onMain: Note | null, after: Note): boolean {
  return promotes(onMain, after) || (onMain !== null && verifiedChanges(onMain, after).length > 0);
}

// ---- phases ------------------------------------------------------------------------------------

function phaseFindings({ kind, before, after, actor, context }: PhaseWrite): WriteFinding[] {
  const findings: WriteFinding[] = [];
  const field = "status";
  if (kind === "phase-create") {
    if (actor.role !== "author") findings.push({ rule: "role", field: "name", message: "only authors create a phase" });
    const same = context.phases?.find((p) => p.slug === after.slug || namesOf(p).includes(after.name.toLowerCase()));
    if (before || same)
      findings.push({ rule: "phase", field: "name", message: `there is already a phase "${same ? phaseTitle(same) : before?.name}" (${after.slug})` });
    if (after.status !== "open" || after.closeout) findings.push({ rule: "phase", field: "status", message: "a new phase starts open" });
    return findings;
  }
  if (kind === "phase-rename") return renameFindings(before, after, actor, context);
  if (actor.role !== "author")
    findings.push({ rule: "role", field, message: kind === "phase-reopen" ? "only authors reopen a phase" : "only authors close a phase" });
  // Closing a closed phase, or reopening an open one, is not that change at all: nothing else to say.
  if (kind === "phase-close" && before?.status === "closed")
    return [...findings, { rule: "closeout", field, message: `phase ${after.name} is already closed` }];
  if (kind === "phase-reopen" && before?.status !== "closed") return [...findings, { rule: "closeout", field, message: `phase ${after.name} is not closed` }];
  if (kind === "phase-close" && after.status === "closed" && !after.closeout) {
    findings.push({
      rule: "closeout",
      field: "closeout",
      message: `no decision delta: no note of phase ${after.name} became verified while it was open; publish a verified note of this phase, or record why there is no new decision`,
    });
  }
  if (
    after.closeout?.kind === "no-delta" &&
    JSON.stringify(before?.closeout) !== JSON.stringify(after.closeout) &&
    after.closeout.why.trim().length < NO_DELTA_MIN
  ) {
    findings.push({
      rule: "closeout",
      field: "closeout.why",
      message: `the no-delta record must say in words (at least ${NO_DELTA_MIN} characters) why the phase adds no decision`,
    });
  }
  const newest = after.reopenings.at(-1);
  if (kind === "phase-reopen" && after.reopenings.length > (before?.reopenings.length ?? 0) && !newest?.reason.trim()) {
    findings.push({ rule: "closeout", field: "reopenings", message: "reopening a closed phase needs a reason" });
  }
  for (const message of checkPhaseChange(before, after, context.facts)) {
    // The friendlier "no decision delta" above says the same as "closed without a closeout record".
    if (kind === "phase-close" && !after.closeout && /without a closeout record/.test(message)) continue;
    findings.push({ rule: "closeout", field: /reopen/.test(message) ? "reopenings" : "closeout", message });
  }
  return findings;
}

/** Which write a change of a phase file is, as content:check sees it in a commit (`prior` null: a new file). */
export function phaseWriteKind(prior: Phase | null, phase: Phase): Exclude<PhaseWriteKind, "phase-create"> {
  if (phase.status === "closed" && prior?.status !== "closed") return "phase-close";
  if (phase.status === "open" && prior?.status === "closed") return "phase-reopen";
  if (prior && prior.title !== phase.title && JSON.stringify(withoutTitle(prior)) === JSON.stringify(withoutTitle(phase))) return "phase-rename";
  return "phase-edit";
}

const withoutTitle = ({ title: _title, ...rest }: Phase) => rest;

/** A phase's names in lower case: the one notes carry and the one it is shown by. */
const namesOf = (p: Pick<Phase, "name" | "title">) => [p.name.toLowerCase(), ...(p.title ? [p.title.toLowerCase()] : [])];

/**
 * A rename changes only the name a phase is shown by (`title`): the name notes carry and the slug
 * stay, so no note is rewritten and no address moves. Open or closed alike (a closed phase's
 * closeout record is untouched); the new name is no other phase's name or title.
 */
function renameFindings(before: Phase | null, after: Phase, actor: Actor, context: PhaseWriteContext): WriteFinding[] {
  const findings: WriteFinding[] = [];
  if (actor.role !== "author") findings.push({ rule: "role", field: "name", message: "only authors rename a phase" });
  if (!before) return [...findings, { rule: "phase", field: "name", message: `there is no phase ${after.slug} to rename` }];
  if (JSON.stringify(withoutTitle(before)) !== JSON.stringify(withoutTitle(after))) {
    findings.push({
      rule: "phase",
      field: "name",
      message: `a rename changes only the name phase ${before.name} is shown by; its slug, name in notes, status and records stay`,
    });
  }
  const shown = phaseTitle(after);
  if (shown === phaseTitle(before)) findings.push({ rule: "phase", field: "name", message: `phase ${before.slug} is already called "${shown}"` });
  const other = context.phases?.find((p) => p.slug !== after.slug && namesOf(p).includes(shown.toLowerCase()));
  if (other) findings.push({ rule: "phase", field: "name", message: `there is already a phase "${phaseTitle(other)}" (${other.slug})` });
  return findings;
}

// ---- shared ------------------------------------------------------------------------------------

/** The line within the field's text a schema issue names (a section's reserved heading), when it names one. */
function lineOf(issue: { code: string; params?: Record<string, unknown> }): { line?: number } {
  const line = issue.code === "custom" ? issue.params?.line : undefined;
  return typeof line === "number" ? { line } : {};
}

/** A schema path as the field the editor shows ("tags.2" is the Tags field). */
function fieldOf(path: readonly PropertyKey[]): string {
  const [first, second] = path.map(String);
  if (first === "sections" || first === "core" || first === "provenance") return second ? `${first}.${second}` : first;
  return first ?? "note";
}

/** Findings in one line each, as an error message lists them. */
export function describeFindings(findings: readonly WriteFinding[]): string {
  return findings.map((f) => (f.rule === "archive-policy" ? `${f.field} line ${f.line}: ${f.message}` : f.message)).join("; ");
}
