import { config } from "@/lib/env";
import type { OAuthProviderId } from "@/lib/env-auth";

/**
 * Which allow-list entry an OAuth profile signs in as. Who a session is on each request, and
 * whether it still counts, is lib/auth/sessions.ts.
 */

/** The allow-listed id for an OAuth profile, or null when the identity is not on the list. */
export function oauthActorId(provider: string, profile: Record<string, unknown> | undefined): string | null {
  if (provider !== "github" && provider !== "oidc") return null;
  const candidates = identitiesOf(provider, profile ?? {});
  const allow = config().auth.allow.filter((a) => a.provider === provider);
  const match = candidates.find((c) => allow.some((a) => a.identity === c));
  return match ? `${provider}:${match}` : null;
}

function identitiesOf(provider: OAuthProviderId, p: Record<string, unknown>): string[] {
  const str = (v: unknown) => (typeof v === "string" && v ? [v.toLowerCase()] : []);
  if (provider === "github") return str(p.login);
  // An issuer's e-mail counts only when the issuer says it verified it; the subject always counts.
  return [...(p.email_verified === false ? [] : str(p.email)), ...str(p.sub)];
}
