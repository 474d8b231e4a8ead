import "server-only";
import { getContentStore, getStoreForWrite, type ContentStore } from "@/lib/working-copy/content-store";
import { ApiError } from "@/lib/rules/api-errors";
import { commitPerson, type StudioActor } from "@/lib/rules/identity";
import { phaseFacts, readPhases } from "@/lib/content/phases";
import { isPublishedStatus, type Note } from "@/lib/notes/schema";
import { phasePath, phaseSchema, phaseTitle, serializePhase, type Phase } from "@/lib/phases/schema";
import { slug as urlSlug } from "@/lib/web/urls";
import { acceptWrite } from "@/lib/rules/accept-write";
import { deltaOf, proposeClose, proposeReopen } from "@/lib/rules/phase-closeout";
import { RefConflictError } from "@/lib/store";
import type { Oid } from "@/lib/store/types";
import type { ClosePhaseRequest, CreatePhaseRequest, RenamePhaseRequest, ReopenPhaseRequest } from "@/lib/validations/phase";
import { MAIN_REF, noMain } from "./refs";
import { refuseWhileMainRefused } from "./main-state";
import { announce } from "@/lib/webhooks/announce";
import { claimOwnWrite } from "@/lib/working-copy/announced";

/**
 * Phases in the studio: each with its published notes and decision delta, and the two changes a
 * phase can make (close, reopen), each one commit on main to the phase's file, decided by the
 * closeout rule in lib/rules. The rule runs here on what main holds, whatever the page showed.
 */

export type StudioPhase = {
  phase: Phase;
  notes: { id: string; title: string; status: Note["status"] }[];
  delta: string[];
  /** What closing now would need, for this actor (empty when it can close). */
  closeUnmet: string[];
};

const ATTEMPTS = 5;
const today = () => new Date().toISOString().slice(0, 10);

async function mainState(store: ContentStore) {
  const commit = await store.resolve(MAIN_REF);
  if (!commit) throw noMain();
  const notes = (await store.snapshot(commit)).notes.flatMap((s) => (s.ok && isPublishedStatus(s.note.status) ? [s.note] : []));
  const [phases, facts] = await Promise.all([readPhases(store, commit), phaseFacts(store, commit, notes)]);
  return { commit, notes, phases, facts };
}

export async function listPhases(actor: StudioActor): Promise<{ commit: Oid; phases: StudioPhase[] }> {
  const { commit, notes, phases, facts } = await mainState(await getContentStore());
  return {
    commit,
    phases: await Promise.all(
      phases.map(async ({ phase }) => ({
        phase,
        notes: notes.filter((n) => n.phase === phase.name).map((n) => ({ id: n.id, title: n.title, status: n.status })),
        delta: deltaOf(phase, facts),
        // What a close without a no-delta record would be told, by the same function that decides it.
        closeUnmet:
          phase.status === "open"
            ? (
                await acceptWrite({
                  kind: "phase-close",
                  before: phase,
                  after: proposeClose({ phase, notes: facts, actor, today: today() }),
                  actor,
                  context: { facts },
                })
              ).findings.map((f) => f.message)
            : [],
      })),
    ),
  };
}

/**
 * A new open phase, one commit on main adding `phases/<slug>.yaml`. The slug is the name's URL form
 * now and stays the phase's address for good. Refused (422 `invalid-phase`, nothing written) when
 * the name has no URL form or another phase has that name or slug, as the acceptance function says.
 */
export async function createPhase(actor: StudioActor, request: CreatePhaseRequest): Promise<{ commit: Oid; phase: Phase }> {
  const store = await getContentStore();
  const slug = urlSlug(request.name);
  const parsed = phaseSchema.safeParse({ name: request.name, slug, status: "open", description: request.description ?? "", opened: today() });
  if (!parsed.success) {
    const where = [{ field: "name", message: `"${request.name}" has no URL form to be the phase's address; use letters or digits` }];
    throw new ApiError(422, "invalid-phase", `phase "${request.name}" cannot be created: ${where[0]?.message}`, { where });
  }
  const next = parsed.data;
  for (let attempt = 1; ; attempt++) {
    const { commit, phases, facts } = await mainState(store);
    await refuseWhileMainRefused(store, commit, `creating phase "${next.name}"`, phasePath(slug));
    const before = phases.find((p) => p.phase.slug === slug)?.phase ?? null;
    const verdict = await acceptWrite({
      kind: "phase-create",
      before,
      after: next,
      actor,
      context: { facts, phases: phases.map((p) => p.phase) },
    });
    if (!verdict.allowed) {
      const where = verdict.findings.map((f) => ({ field: f.field, message: f.message }));
      if (verdict.findings.some((f) => f.rule === "role")) throw new ApiError(403, "forbidden", "only authors create a phase");
      throw new ApiError(422, "invalid-phase", `phase "${next.name}" cannot be created: ${where.map((w) => w.message).join("; ")}`, { where });
    }
    try {
      const revision = await store.commit({
        ref: MAIN_REF,
        expected: commit,
        author: commitPerson(actor),
        message: `Create phase ${next.name}`,
        changes: { [phasePath(slug)]: serializePhase(next) },
      });
      // Nothing to announce, but claimed as told, so the studio's next write on main can claim its own.
      await claimOwnWrite(store, revision.commit);
      return { commit: revision.commit, phase: next };
    } catch (e) {
      if (e instanceof RefConflictError && attempt < ATTEMPTS) continue;
      throw e;
    }
  }
}

export async function closePhase(actor: StudioActor, slug: string, request: ClosePhaseRequest) {
  const closed = await changePhase(actor, slug, async (phase, facts) => {
    const next = proposeClose({ phase, notes: facts, actor, today: today(), noDeltaWhy: request.noDeltaWhy });
    const verdict = await acceptWrite({ kind: "phase-close", before: phase, after: next, actor, context: { facts } });
    if (!verdict.allowed || !next.closeout) {
      const unmet = verdict.findings.map((f) => f.message);
      throw new ApiError(422, "close-refused", `phase ${phase.name} cannot close yet: ${unmet.join("; ")}`, { unmet });
    }
    const closeout = next.closeout;
    const message =
      closeout.kind === "delta"
        ? `Close phase ${phase.name} with decision delta ${closeout.notes.join(", ")}`
        : `Close phase ${phase.name}: no new decision delta\n\n${closeout.why}`;
    return { next, message };
  });
  if (await claimOwnWrite(await getContentStore(), closed.commit))
    await announce({ kind: "phase-close", actor: { id: actor.id, name: actor.name }, commit: closed.commit, phase: closed.phase });
  return closed;
}

export async function reopenPhase(actor: StudioActor, slug: string, request: ReopenPhaseRequest) {
  const reopened = await changePhase(actor, slug, async (phase, facts) => {
    const next = proposeReopen(phase, actor, today(), request.reason);
    const verdict = await acceptWrite({ kind: "phase-reopen", before: phase, after: next, actor, context: { facts } });
    if (!verdict.allowed) {
      const unmet = verdict.findings.map((f) => f.message);
      throw new ApiError(422, "reopen-refused", `phase ${phase.name} cannot reopen: ${unmet.join("; ")}`, { unmet });
    }
    return { next, message: `Reopen phase ${phase.name}\n\nReason: ${request.reason}` };
  });
  // A reopen announces nothing; claimed as told all the same (see createPhase).
  await claimOwnWrite(await getContentStore(), reopened.commit);
  return reopened;
}

/**
 * A new name to show the phase by, one commit on main to `phases/<slug>.yaml` (its `title`): the
 * name notes carry and the slug stay, so no note is rewritten and no address moves. Refused (422
 * `invalid-phase` naming the field, nothing written) when another phase has that name.
 */
export async function renamePhase(actor: StudioActor, slug: string, request: RenamePhaseRequest) {
  const renamed = await changePhase(actor, slug, async (phase, facts, phases) => {
    const { title: _shown, ...kept } = phase;
    // Renaming back to the name notes carry needs no title.
    const next: Phase = request.name === phase.name ? kept : { ...kept, title: request.name };
    const verdict = await acceptWrite({ kind: "phase-rename", before: phase, after: next, actor, context: { facts, phases: phases.map((p) => p.phase) } });
    if (!verdict.allowed) {
      const where = verdict.findings.map((f) => ({ field: f.field, message: f.message }));
      if (verdict.findings.some((f) => f.rule === "role")) throw new ApiError(403, "forbidden", "only authors rename a phase");
      throw new ApiError(422, "invalid-phase", `phase ${phaseTitle(phase)} cannot be renamed: ${where.map((w) => w.message).join("; ")}`, { where });
    }
    return { next, message: `Rename phase ${phaseTitle(phase)} to ${request.name}` };
  });
  // A rename announces nothing; claimed as told all the same (see createPhase).
  await claimOwnWrite(await getContentStore(), renamed.commit);
  return renamed;
}

type MainState = Awaited<ReturnType<typeof mainState>>;
type Change = (phase: Phase, facts: MainState["facts"], phases: MainState["phases"]) => Promise<{ next: Phase; message: string }>;

/** One commit on main to the phase's file; a race with another commit re-reads main and decides again. */
async function changePhase(actor: StudioActor, slug: string, change: Change) {
  const store = await getStoreForWrite();
  for (let attempt = 1; ; attempt++) {
    const { commit, phases, facts } = await mainState(store);
    const found = phases.find((p) => p.phase.slug === slug);
    if (!found) throw new ApiError(404, "not-found", `there is no phase "${slug}"`);
    await refuseWhileMainRefused(store, commit, `changing phase ${phaseTitle(found.phase)}`, found.file);
    const { next, message } = await change(found.phase, facts, phases);
    const original = (await store.readFile(commit, found.file)) ?? "";
    // Keep the file's leading comment: it is the phase file's note to a person editing it by hand.
    const comment = original.match(/^(?:#.*\n)+/)?.[0] ?? "";
    try {
      const revision = await store.commit({
        ref: MAIN_REF,
        expected: commit,
        author: commitPerson(actor),
        message,
        changes: { [phasePath(slug)]: comment + serializePhase(next) },
      });
      return { commit: revision.commit, phase: next };
    } catch (e) {
      if (e instanceof RefConflictError && attempt < ATTEMPTS) continue;
      throw e;
    }
  }
}
