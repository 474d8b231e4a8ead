import { requireActor } from "@/lib/auth/actor";
import { handle, json } from "@/lib/api/respond";
import { reviewInbox } from "@/lib/review/inbox";

/** GET: the signed-in person's review inbox (drafts awaiting a verdict, threads awaiting a reply) and every note's review at a glance. */
export const GET = handle(async (request: Request) => {
  const actor = await requireActor(request);
  return json(await reviewInbox(actor));
});
