import { handle } from "@/lib/api/respond";
import { ApiError } from "@/lib/rules/api-errors";
import { originFor } from "@/lib/origin";
import { notificationsFeed } from "@/lib/notifications/atom";
import { notificationsOf } from "@/lib/notifications/notifications";
import { personOfFeedToken } from "@/lib/notifications/person-settings";
import { feedPath } from "@/lib/notifications/settings";

/**
 * GET: a person's notifications as Atom, for a feed reader. The secret in the address is the only
 * credential (a feed reader has no session); an unknown, malformed or revoked one answers 404, as
 * an address that never existed. Private: never cached by a shared cache, never indexed.
 */

export const dynamic = "force-dynamic";

export const GET = handle(async (request: Request, context: { params?: Promise<Record<string, string>> }) => {
  const token = (await context.params)?.token ?? "";
  const person = await personOfFeedToken(token);
  if (!person) throw new ApiError(404, "not-found", "there is no feed at this address (it may have been replaced or revoked)");
  const origin = originFor(request);
  const { items } = await notificationsOf(person);
  return new Response(notificationsFeed({ person, items, origin, self: `${origin}${feedPath(token)}` }), {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "Cache-Control": "private, no-cache",
      "X-Robots-Tag": "noindex, nofollow",
      "Referrer-Policy": "no-referrer",
    },
  });
});
