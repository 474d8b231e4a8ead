import { config } from "@/lib/env";
import type { OAuthProviderId } from "@/lib/env-auth";
import { findAccount } from "./accounts";
import type { StudioActor } from "./identity";

/**
 * From an identity id to the actor it is now: accounts and the allow-list are read on every
 * request, so removing an account or an allow-list entry takes effect at once, even for a session
 * that is still open.
 */

export async function actorOfId(id: string, via: StudioActor["via"]): Promise<StudioActor | null> {
  const colon = id.indexOf(":");
  if (colon < 0) {
    const account = await findAccount(id);
    return account ? { id: account.name, name: account.name, role: account.role, via } : null;
  }
  const provider = id.slice(0, colon);
  const identity = id.slice(colon + 1);
  const entry = config().auth.allow.find((a) => a.provider === provider && a.identity === identity);
  return entry ? { id, name: identity, role: entry.role, via } : null;
}

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
