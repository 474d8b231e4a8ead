import { route } from "@/lib/api/route";
import { newFeedAddress, dropFeedAddress } from "@/lib/notifications/settings";
import { feedAddressRequest } from "@/lib/validations/notifications";

/** POST {}: a new secret feed address for the signed-in person (the old one stops working), shown once. */
export const POST = route({ body: feedAddressRequest, status: 201 }, ({ actor, request }) => newFeedAddress(actor.id, request));

/** DELETE {}: revoke the feed address; answers the settings after. */
export const DELETE = route({ body: feedAddressRequest }, ({ actor }) => dropFeedAddress(actor.id));
