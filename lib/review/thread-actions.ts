import type { StudioActor } from "@/lib/auth/identity";
import { ApiError } from "@/lib/api/errors";
import { SECTIONS } from "@/lib/notes/schema";
import { notePath } from "@/lib/working-copy/layout";
import type { EditCommentRequest, ReplyRequest, StartThreadRequest } from "@/lib/validations/review";
import { reviewTarget } from "./review-target";
import { clip, writeReview } from "./write-review";

/**
 * Threads: start one on a section (optionally on a quoted passage) of a revision, reply, edit one's
 * own comment (the earlier text stays in its history), resolve and reopen. Authors and reviewers alike.
 */

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<string, string>;

export async function startThread(actor: StudioActor, id: string, request: StartThreadRequest) {
  const target = await reviewTarget(id);
  // The revision must be one of this note's: the current one or an earlier revision of its file.
  const known =
    request.revision === target.currentRevision ||
    (await target.store.history(notePath(id), target.copy.draftHead ?? target.copy.mainHead)).some((r) => r.commit === request.revision);
  const then = known ? await target.store.readNote(id, request.revision) : null;
  if (!then?.ok) {
    throw new ApiError(
      422,
      "unknown-revision",
      `${request.revision.slice(0, 7)} is not a saved revision of ${id}; start the thread on the revision you are reading (${target.currentRevision.slice(0, 7)})`,
      {
        where: [{ field: "revision", message: `not a revision of ${id}` }],
      },
    );
  }
  const anchor = then.note.sections[request.section];
  if (request.quote && !anchor.includes(request.quote)) {
    throw new ApiError(
      422,
      "quote-not-found",
      `the quoted passage is not in the ${HEADING[request.section]} section at revision ${request.revision.slice(0, 7)}`,
      {
        where: [{ field: "quote", message: `not found in ${HEADING[request.section]}` }],
      },
    );
  }
  return writeReview(actor, target, () => ({
    fields: {
      kind: "thread",
      section: request.section,
      ...(request.quote ? { quote: request.quote } : {}),
      revision: request.revision,
      anchor,
      text: request.text,
    },
    message: `comment on ${HEADING[request.section]}${request.quote ? ` ("${clip(request.quote, 40)}")` : ""}: ${clip(request.text)}`,
  }));
}

export async function replyToThread(actor: StudioActor, id: string, threadId: string, request: ReplyRequest) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, ({ thread }) => {
    const t = thread(threadId);
    return {
      fields: { kind: "reply", thread: t.id, revision: target.currentRevision, text: request.text },
      message: `reply on ${HEADING[t.section]}: ${clip(request.text)}`,
    };
  });
}

export async function editComment(actor: StudioActor, id: string, threadId: string, commentId: string, request: EditCommentRequest) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, ({ thread }) => {
    const t = thread(threadId);
    const comment = t.comments.find((c) => c.id === commentId);
    if (!comment) throw new ApiError(404, "not-found", `thread ${threadId} has no comment ${commentId}`);
    if (comment.by.id !== actor.id) throw new ApiError(403, "not-your-comment", `only ${comment.by.name} edits this comment; reply instead`);
    if (comment.text === request.text)
      throw new ApiError(422, "unchanged", "the comment already reads exactly this", { where: [{ field: "text", message: "unchanged" }] });
    return {
      fields: { kind: "edit", thread: t.id, comment: comment.id, text: request.text },
      message: `edit a comment on ${HEADING[t.section]}: ${clip(request.text)}`,
    };
  });
}

export async function setThreadResolved(actor: StudioActor, id: string, threadId: string, resolved: boolean) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, ({ thread }) => {
    const t = thread(threadId);
    if (t.resolved === resolved) {
      throw new ApiError(
        409,
        resolved ? "already-resolved" : "already-open",
        `the thread on ${HEADING[t.section]} is already ${resolved ? "resolved" : "open"}`,
      );
    }
    return {
      fields: { kind: resolved ? "resolve" : "reopen", thread: t.id },
      message: `${resolved ? "resolve" : "reopen"} the thread on ${HEADING[t.section]}`,
    };
  });
}
