import "server-only";
import { originFor } from "@/lib/origin";
import { mailEnabled } from "./mail-config";
import { queueMailFor } from "./mail-outbox";

/**
 * After a write a route answers (a review record, a publish): queue the mail of the notifications
 * it gave, off the request's path (the answer never waits on it, and it never fails the write).
 */
export function mailAfter(eventId: string, request: Request): void {
  if (!mailEnabled()) return;
  const origin = originFor(request);
  setImmediate(() => void queueMailFor(eventId, origin));
}
