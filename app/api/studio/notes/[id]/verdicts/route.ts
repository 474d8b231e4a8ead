import { requireActor } from "@/lib/auth/actor";
import { handle, json, parseBody } from "@/lib/api/respond";
import { giveVerdict } from "@/lib/review/give-verdict";
import { readReview } from "@/lib/review/read-review";
import { noteIdParam } from "@/lib/studio/refs";
import { verdictRequest } from "@/lib/validations/review";

/**
 * GET: the verdicts on the note (each marked stale when not on its current revision).
 * POST {verdict: "approve" | "request-changes", revision, summary?}: reviewers only, never on one's
 * own note (403), and only on the current revision (409).
 */

type Context = { params: Promise<{ id: string }> };

export const GET = handle(async (request: Request, { params }: Context) => {
  await requireActor(request, undefined, { hideFromAnonymous: true });
  const id = noteIdParam((await params).id);
  const { currentRevision, verdicts, verdictState } = await readReview(id);
  return json({ id, currentRevision, verdictState, verdicts });
});

export const POST = handle(async (request: Request, { params }: Context) => {
  const actor = await requireActor(request, "reviewer");
  const id = noteIdParam((await params).id);
  const body = await parseBody(request, verdictRequest);
  const { record, review } = await giveVerdict(actor, id, body);
  return json({ verdict: record.id, ...review }, 201);
});
