import "server-only";
import { getStoreForWrite, type ContentStore } from "@/lib/working-copy/content-store";
import { NothingToCommitError, RefConflictError } from "@/lib/store";
import type { Oid } from "@/lib/store/types";
import { serializeNote } from "@/lib/notes/markdown";
import type { Note } from "@/lib/notes/schema";
import { acceptWrite, needsApproval } from "@/lib/rules/accept-write";
import { noteAssets } from "@/lib/assets/note-assets";
import { approvalTrailersOf, formatTrailers, reasonOf, withTrailers } from "@/lib/rules/approval-trailers";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { ApiError } from "@/lib/rules/api-errors";
import { fieldsOf } from "@/lib/validations/note";
import type { PublishNoteRequest } from "@/lib/validations/studio";
import { staleRevision } from "./conflict";
import { describePublish } from "./describe-change";
import { approvalForPublish, loadNoteContext, mainFacts, writeContext, type MainFacts, type NoteContext } from "./note-context";
import { viewOf, type NoteView } from "./note-view";
import { unmetOf, whereOf } from "./refusal";
import { approvedRef } from "@/lib/working-copy/layout";
import { draftRef, MAIN_REF, noMain, notePath } from "./refs";
import { isFresh, type WorkingCopy } from "@/lib/working-copy/working-copy";
import { refuseWhileMainRefused } from "./main-state";
import { announce } from "@/lib/webhooks/announce";
import { claimOwnWrite } from "@/lib/working-copy/announced";

/**
 * Publish: the draft's note onto main as one commit that touches only its file and its images, then the draft
 * branch is removed. Refused while the note has schema errors, policy findings or a status that is
 * not published (422), and when main's copy of the note changed since the draft began (409: a
 * plain-git edit on main would otherwise be overwritten unseen).
 */

export type PublishResult = { commit: Oid | null; draftKept: boolean; view: NoteView };

const ATTEMPTS = 5;

/** The answer, and whether this write announced its commit (webhooks here; the route's WebSub ping and mail follow it). */
export async function publishNote(actor: StudioActor, id: string, request: PublishNoteRequest): Promise<PublishResult & { announced: boolean }> {
  // Caught up with the remote first: main and the draft branch are the refs this publish moves.
  const store = await getStoreForWrite();
  const ctx = await loadNoteContext(id, store);
  const { copy } = ctx;
  if (copy.source === "published") {
    throw new ApiError(422, "publish-refused", `${id} has no draft: what is published is already its latest version`, {
      unmet: [`there is no draft of ${id} to publish`],
    });
  }
  if (!(await isFresh(copy, request.revision, store))) throw await staleRevision(ctx, request.revision, { publish: true });
  if (!copy.stored) throw new ApiError(422, "publish-refused", `${id} has never been saved`, { unmet: ["the draft has never been saved"] });
  if (!copy.stored.ok) {
    const where = copy.stored.errors.map((e) => ({ field: e.field, line: e.line, message: e.message }));
    throw new ApiError(422, "invalid-note", `${id}'s draft is not a valid note: ${where.map((w) => `${w.field}: ${w.message}`).join("; ")}`, {
      where,
      unmet: where.map((w) => `${w.field}: ${w.message}`),
    });
  }
  const note = copy.stored.note;
  // A publish of this very revision already landed on main and was stopped before it deleted the
  // draft branch (a crash, a kill): finish it, rather than publish the same revision twice.
  const landedBefore = await landingOfRevision(store, id, copy.revision, copy.mainHead);
  if (landedBefore) return { ...(await finish(store, id, copy.revision, landedBefore)), announced: false };
  // Main's copy changed under the draft: the author sees it first (409), before any rule judges a
  // landing that would silently undo that change (and so read as a change to a verified note).
  await refuseIfMainChanged(store, copy, request.main);
  const approval = await approvalForPublish(ctx);
  const reason = reasonsOnDraft(ctx);
  // The approval, where `git interpret-trailers --parse` and content:check can read it.
  const needs = needsApproval(ctx.copy.onMain?.ok ? ctx.copy.onMain.note : null, note);
  const trailers = formatTrailers({ draftRevision: copy.revision, approvers: needs ? approval.approvers : [], reason });
  const onMainBlob = await store.fileId(ctx.main.commit, notePath(id));

  let commit: Oid | null = null;
  for (let attempt = 1; ; attempt++) {
    // The first try builds on the main this request read; a retry (another note landed) on the new
    // one, judged again there: the editorial order and everything else are decided on the tip the commit lands on.
    const main = attempt === 1 ? ctx.main : await mainFacts(store, await mainHeadOf(store));
    await refuseWhileMainRefused(store, main.commit, `publishing ${id}`, notePath(id));
    if (attempt > 1 && (await store.fileId(main.commit, notePath(id))) !== onMainBlob) {
      // The note itself changed on main meanwhile: by a publish of this same revision, or by someone else.
      const other = await landingOfRevision(store, id, copy.revision, main.commit);
      if (other) throw publishedMeanwhile(id, other);
      await refuseIfMainChanged(store, { ...copy, mainHead: main.commit }, request.main);
    }
    const { landed, firstTime } = landingOn(main, id, note);
    // The note's images land with it; main's copies of images the note no longer shows leave main.
    const assets = await noteAssets(store, note, main.commit);
    await judge(actor, id, ctx, main, landed, approval.review, reason, assets.context);
    if (attempt === 1 && needs) await keepReachable(store, id, approval.review.revision);
    try {
      const revision = await store.commit({
        ref: MAIN_REF,
        expected: main.commit,
        author: commitPerson(actor),
        message: withTrailers(describePublish(id, note, copy.revision, firstTime), trailers),
        changes: { [notePath(id)]: serializeNote(landed), ...assets.changes },
        // Another note landing first changes the order this one takes: the retry below decides it again.
        rebase: false,
      });
      commit = revision.commit;
      break;
    } catch (e) {
      if (e instanceof NothingToCommitError) break; // main already holds exactly this note
      // Another note was published a moment ago; this commit touches only our file, so build on theirs.
      if (e instanceof RefConflictError && attempt < ATTEMPTS) continue;
      throw e;
    }
  }
  // Announced here only when this write claims its commit (lib/working-copy/announced.ts); otherwise the catch-up of main's moves announces it, once.
  const announced = commit !== null && (await claimOwnWrite(store, commit));
  if (announced)
    await announce({
      kind: "publish",
      actor: { id: actor.id, name: actor.name },
      commit: commit!,
      note,
      before: ctx.copy.onMain?.ok ? ctx.copy.onMain.note : null,
    });
  return { ...(await finish(store, id, copy.revision, commit)), announced };
}

/** The draft branch goes (unless someone saved to it meanwhile); the answer is the note as the next request will find it. */
async function finish(store: ContentStore, id: string, revision: Oid, commit: Oid | null): Promise<PublishResult> {
  let draftKept = false;
  try {
    await store.updateRef(draftRef(id), revision, null);
  } catch (e) {
    if (!(e instanceof RefConflictError)) throw e;
    // Someone saved to the draft while it was being published: their work stays on the branch. Or
    // another publish of this revision deleted it first: then nothing is kept.
    draftKept = (await store.resolve(draftRef(id))) !== null;
  }
  return { commit, draftKept, view: await viewOf(await loadNoteContext(id, store)) };
}

/** The acceptance function on the main this attempt lands on; refused: the 422 the studio shows. */
async function judge(
  actor: StudioActor,
  id: string,
  ctx: NoteContext,
  main: MainFacts,
  landed: Note,
  review: Awaited<ReturnType<typeof approvalForPublish>>["review"],
  reason: string | undefined,
  assets: Awaited<ReturnType<typeof noteAssets>>["context"],
) {
  const context = {
    ...writeContext(ctx, review, reason),
    phases: main.phases,
    publishedIds: main.publishedIds,
    noteIds: main.noteIds,
    orders: main.orders,
    assets,
  };
  const verdict = await acceptWrite({ kind: "publish", before: null, after: landed, actor, context });
  if (verdict.allowed) return;
  const phase = verdict.findings.filter((f) => f.rule === "phase");
  if (phase.length) {
    throw new ApiError(422, "unknown-phase", `${id}: ${phase.map((f) => f.message).join("; ")}`, {
      where: phase.map(whereOf),
      unmet: unmetOf(verdict.findings),
    });
  }
  const unmet = unmetOf(verdict.findings);
  const where = verdict.findings.filter((f) => f.rule === "archive-policy").map(whereOf);
  throw new ApiError(422, "publish-refused", `${id} cannot be published yet: ${unmet.join("; ")}`, { unmet, where });
}

/** The commit on main (at `head`) whose last change to the note published exactly `revision` (its Draft-revision trailer), or null. */
async function landingOfRevision(store: ContentStore, id: string, revision: Oid, head: Oid): Promise<Oid | null> {
  const [last] = await store.history(notePath(id), head, { limit: 1 });
  if (!last || last.blob === null) return null;
  return approvalTrailersOf(last.message).draftRevision === revision ? last.commit : null;
}

/** This request lost a race: another publish of the same revision landed first. */
function publishedMeanwhile(id: string, commit: Oid): ApiError {
  return new ApiError(
    409,
    "published-meanwhile",
    `${id}: another publish of this revision landed first (commit ${commit.slice(0, 7)}); this one wrote nothing. The note is published; reload it.`,
    {},
    { main: commit },
  );
}

/**
 * The note as it lands on `main`: one new to main goes to the top of "All decision records" (the
 * order `mainFacts` computes on this tip, the one place the next order is decided); one already
 * there keeps main's own order, whatever its draft says (a draft begun before its first publish holds the order it was created with).
 */
function landingOn(main: MainFacts, id: string, note: Note): { landed: Note; firstTime: boolean } {
  const there = main.snapshot.notes.find((n) => n.id === id);
  if (!there) return { landed: { ...note, order: main.nextOrder }, firstTime: true };
  return { landed: there.ok ? { ...note, order: there.note.order } : note, firstTime: false };
}

async function mainHeadOf(store: ContentStore): Promise<Oid> {
  const head = await store.resolve(MAIN_REF);
  if (!head) throw noMain();
  return head;
}

/**
 * The approved revision stays reachable after its draft branch is deleted (refs/approved/<id>/<oid>),
 * so a mirror clone carries what the Approved-by trailers point at and content:check can compare it.
 */
async function keepReachable(store: ContentStore, id: string, revision: Oid) {
  if (!/^[0-9a-f]{40}$/.test(revision)) return;
  try {
    await store.updateRef(approvedRef(id, revision), null, revision);
  } catch (e) {
    if (!(e instanceof RefConflictError)) throw e; // already kept by an earlier publish
  }
}

/** The reasons given on the draft's own saves (a boundary removed "because …"), carried to main as a Reason: trailer. */
function reasonsOnDraft(ctx: NoteContext): string | undefined {
  const onMainBlob = ctx.copy.onMain?.blob;
  const reasons: string[] = [];
  for (const r of ctx.revisions) {
    if (r.blob === onMainBlob) break;
    const why = /\(why: (.+)\)$/m.exec(r.message)?.[1] ?? /^Why: (.+)$/m.exec(r.message)?.[1] ?? reasonOf(r.message);
    if (why) reasons.push(why.trim());
  }
  return reasons.length ? [...new Set(reasons)].join("; ") : undefined;
}

/**
 * Main's copy of the note must be the one the draft started from (the draft's history contains
 * main's last change to the file), or one the author has acknowledged by sending that main commit.
 */
async function refuseIfMainChanged(store: ContentStore, copy: WorkingCopy, acknowledged: string | undefined) {
  const path = notePath(copy.id);
  const [lastOnMain] = await store.history(path, copy.mainHead, { limit: 1 });
  if (!lastOnMain || lastOnMain.blob === null) return;
  const draftLine = await store.history(path, copy.revision);
  if (draftLine.some((r) => r.commit === lastOnMain.commit)) return;
  if (acknowledged && /^[0-9a-f]{40}$/.test(acknowledged)) {
    const seen = await store.readNote(copy.id, acknowledged).catch(() => null);
    if (seen && seen.blob === lastOnMain.blob) return;
  }
  const onMain = await store.readNote(copy.id, lastOnMain.commit);
  throw new ApiError(
    409,
    "main-changed",
    `${copy.id} on main changed after this unpublished version began (commit ${lastOnMain.commit.slice(0, 7)} by ${lastOnMain.author.name}); publishing would overwrite it. Take what you need from main's version, save, and publish again with "main": "${lastOnMain.commit}".`,
    {},
    {
      main: lastOnMain.commit,
      theirs: {
        source: "main",
        commit: lastOnMain.commit,
        author: lastOnMain.author,
        date: lastOnMain.date,
        fields: onMain?.ok ? fieldsOf(onMain.note) : null,
      },
      yours: copy.stored?.ok ? fieldsOf(copy.stored.note) : null,
    },
  );
}
