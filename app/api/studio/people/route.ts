import { route } from "@/lib/api/route";
import { mentionablePeople } from "@/lib/notifications/notifications";

/** GET: everyone a comment can mention (accounts and allow-listed sign-ins): the name a mention uses and the display name, for the comment box's completion. */
export const GET = route({}, async () => ({
  people: [...(await mentionablePeople()).values()]
    .map(({ id, name, displayName }) => ({ id, name, displayName: displayName ?? name }))
    .sort((a, b) => a.displayName.localeCompare(b.displayName) || a.name.localeCompare(b.name)),
}));
