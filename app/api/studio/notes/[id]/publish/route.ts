import { noteId, route } from "@/lib/api/route";
import { beforePublish } from "@/lib/public/websub";
import { publishNote } from "@/lib/studio/publish-note";
import { publishNoteRequest } from "@/lib/validations/studio";
import { mailAfter } from "@/lib/notifications/mail-after";

/** POST {revision, main?}: the draft onto main as one commit touching only its file; then the WebSub hub, if any, hears of its feeds, and the people it concerns get their mail. */
export const POST = route({ role: "author", params: { id: noteId }, body: publishNoteRequest }, async ({ actor, params, body, request }) => {
  const announce = await beforePublish(params.id, request);
  const { announced, ...result } = await publishNote(actor, params.id, body);
  // A commit this write did not claim is announced by the catch-up of main's moves (lib/events), hub and mail included.
  announce(announced);
  if (announced && result.commit) mailAfter(result.commit.slice(0, 12), request);
  return result;
});
