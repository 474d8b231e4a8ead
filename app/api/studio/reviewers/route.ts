import { route } from "@/lib/api/route";
import { listReviewers } from "@/lib/review/request-review";

/** GET: the people an author can ask for a review (accounts and allow-listed sign-ins with the reviewer role). */
export const GET = route({}, async () => ({ reviewers: await listReviewers() }));
