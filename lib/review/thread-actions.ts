import "server-only";
import type { StudioActor } from "@/lib/rules/identity";
import { SECTIONS } from "@/lib/notes/schema";
import type { EditCommentRequest, ReplyRequest, StartThreadRequest } from "@/lib/validations/review";
import { reviewTarget } from "./review-target";
import { clip, writeReview } from "./write-review";

/**
 * Threads: start one on a section (optionally on a quoted passage) of a revision, reply, edit one's
 * own comment (the earlier text stays in its history), resolve and reopen. Authors and reviewers
 * alike. What each may do is the acceptance function's (lib/rules/review-write.ts); this module
 * reads what it needs and writes the record.
 */

const HEADING = Object.fromEntries(SECTIONS.map((s) => [s.key, s.heading])) as Record<string, string>;

export async function startThread(actor: StudioActor, id: string, request: StartThreadRequest) {
  const target = await reviewTarget(id);
  // The note at the revision the thread names, if that is one of this note's: the current one or an earlier revision of its file.
  const known = request.revision === target.currentRevision || target.revisions.some((r) => r.commit === request.revision);
  const then = known ? await target.store.readNote(id, request.revision) : null;
  const at = then?.ok ? then.note : null;
  const { section, quote, revision, text } = request;
  return writeReview(actor, target, { kind: "thread", at, after: { section, ...(quote ? { quote } : {}), revision, text } }, () => ({
    fields: { kind: "thread", section, ...(quote ? { quote } : {}), revision, anchor: at?.sections[section] ?? "", text },
    message: `comment on ${HEADING[section]}${quote ? ` ("${clip(quote, 40)}")` : ""}: ${clip(text)}`,
  }));
}

export async function replyToThread(actor: StudioActor, id: string, threadId: string, request: ReplyRequest) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, { kind: "reply", after: { thread: threadId, text: request.text } }, ({ thread }) => ({
    fields: { kind: "reply", thread: threadId, revision: target.currentRevision, text: request.text },
    message: `reply on ${HEADING[thread(threadId).section]}: ${clip(request.text)}`,
  }));
}

export async function editComment(actor: StudioActor, id: string, threadId: string, commentId: string, request: EditCommentRequest) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, { kind: "comment-edit", after: { thread: threadId, comment: commentId, text: request.text } }, ({ thread }) => ({
    fields: { kind: "edit", thread: threadId, comment: commentId, text: request.text },
    message: `edit a comment on ${HEADING[thread(threadId).section]}: ${clip(request.text)}`,
  }));
}

export async function setThreadResolved(actor: StudioActor, id: string, threadId: string, resolved: boolean) {
  const target = await reviewTarget(id);
  return writeReview(actor, target, { kind: resolved ? "thread-resolve" : "thread-reopen", after: { thread: threadId } }, ({ thread }) => ({
    fields: { kind: resolved ? "resolve" : "reopen", thread: threadId },
    message: `${resolved ? "resolve" : "reopen"} the thread on ${HEADING[thread(threadId).section]}`,
  }));
}
