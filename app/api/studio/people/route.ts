import { route } from "@/lib/api/route";
import { mentionablePeople } from "@/lib/notifications/notifications";

/** GET: everyone a comment can mention (accounts and allow-listed sign-ins), by name, for the comment box's completion. */
export const GET = route({}, async () => ({ people: [...(await mentionablePeople()).values()].sort((a, b) => a.name.localeCompare(b.name)) }));
