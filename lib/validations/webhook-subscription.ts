import { z } from "zod";
import { EVENT_TYPES } from "./webhook-events";

/**
 * A receiver an author added in the studio. Kept in the accounts store (DATA_DIR/accounts.json, or
 * the accounts repository with ACCOUNTS_REMOTE), so every instance of a site sends to it, and its
 * secret stays out of the content repository like every password hash.
 */
export const subscriptionSchema = z.object({
  id: z.string().regex(/^[0-9a-f]{12}$/),
  url: z.string(),
  secret: z.string(),
  /** The events it is sent; empty: all of them. */
  events: z.array(z.enum(EVENT_TYPES)),
  created: z.string(),
  by: z.string(),
});

export type Subscription = z.infer<typeof subscriptionSchema>;
