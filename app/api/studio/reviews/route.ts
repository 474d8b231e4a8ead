import { route } from "@/lib/api/route";
import { reviewInbox } from "@/lib/review/inbox";

/** GET: the signed-in person's review inbox (drafts awaiting a verdict, threads awaiting a reply) and every note's review at a glance. */
export const GET = route({}, ({ actor }) => reviewInbox(actor));
