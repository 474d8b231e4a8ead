import "server-only";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import type { OAuthConfig } from "next-auth/providers/oauth";
import { config } from "@/lib/env";
import type { AuthConfig } from "@/lib/env-auth";
import { oauthActorId } from "./actors";
import { sessionSecret } from "./secret";
import { clientAddress, trustedProxies } from "@/lib/web/client-address";
import { actorOfSession, endSessions, sessionClaims } from "./sessions";
import { createPasswordSignIn } from "./sign-in";

/**
 * next-auth's configuration: local accounts always, GitHub and a generic OIDC issuer when their
 * variables are set. Sessions are signed JWT cookies that carry the identity id and its session key
 * at sign-in; on every request the role is looked up (accounts, allow-list), never trusted from the
 * cookie, and the session counts only while the key is still the identity's (lib/auth/sessions.ts):
 * sign-out, a new password, a new role and removal each end every session of the identity.
 */

export const SIGN_IN_PATH = "/sign-in";
const passwordSignIn = createPasswordSignIn();

export function authOptions(): AuthOptions {
  const { auth, trustProxy } = config();
  applyAuthUrl(auth.url);
  const proxies = trustedProxies(trustProxy);
  return {
    secret: sessionSecret(),
    session: { strategy: "jwt", maxAge: 7 * 24 * 60 * 60 },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    providers: [
      CredentialsProvider({
        id: "credentials",
        name: "Account",
        credentials: { name: { label: "Account", type: "text" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const { name, sessionKey } = await passwordSignIn({
            name: String(credentials?.name ?? ""),
            password: String(credentials?.password ?? ""),
            // The socket's address (or the client a TRUST_PROXY proxy names), never a header as the client wrote it.
            address: clientAddress(req?.headers ?? {}, proxies),
          });
          return { id: name, name, sessionKey };
        },
      }),
      ...oauthProviders(auth),
    ],
    callbacks: {
      signIn({ account, profile }) {
        if (!account || account.provider === "credentials") return true;
        return oauthActorId(account.provider, profile as Record<string, unknown> | undefined) !== null ? true : `${SIGN_IN_PATH}?error=NotAllowed`;
      },
      async jwt({ token, user, account, profile }) {
        // Only at sign-in (account is set): the identity and the session key it is bound to.
        if (account?.provider === "credentials") {
          token.sub = user.id;
          token.sk = user.sessionKey;
        } else if (account) {
          const id = oauthActorId(account.provider, profile as Record<string, unknown> | undefined);
          const claims = id ? await sessionClaims(id) : null;
          token.sub = claims?.sub;
          token.sk = claims?.sk;
        }
        return token;
      },
      async session({ session, token }) {
        const actor = await actorOfSession(token);
        return actor ? { ...session, actor: { id: actor.id, name: actor.name, role: actor.role } } : { expires: session.expires };
      },
    },
    events: {
      // A sign-out ends every session of the identity, on every instance, so a copy of the cookie is dead too.
      async signOut({ token }) {
        if (await endSessions(token ?? {})) return;
        if (token?.sub) console.warn(`sign-out of ${JSON.stringify(token.sub)} with a session that had already ended`);
      },
    },
  };
}

/** Which OAuth sign-in buttons the sign-in page shows. */
export function oauthButtons(): { id: string; name: string }[] {
  const { auth } = config();
  return [...(auth.github ? [{ id: "github", name: "GitHub" }] : []), ...(auth.oidc ? [{ id: "oidc", name: auth.oidc.name }] : [])];
}

function oauthProviders(auth: AuthConfig): OAuthConfig<Record<string, unknown>>[] {
  const providers: OAuthConfig<Record<string, unknown>>[] = [];
  if (auth.github) {
    providers.push(
      GitHubProvider({ clientId: auth.github.clientId, clientSecret: auth.github.clientSecret }) as unknown as OAuthConfig<Record<string, unknown>>,
    );
  }
  if (auth.oidc) {
    const oidc = auth.oidc;
    providers.push({
      id: "oidc",
      name: oidc.name,
      type: "oauth",
      wellKnown: `${oidc.issuer}/.well-known/openid-configuration`,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      profile: (p) => ({
        id: String(p.sub),
        name: String(p.name ?? p.preferred_username ?? p.email ?? p.sub),
        email: typeof p.email === "string" ? p.email : null,
      }),
    });
  }
  return providers;
}

/**
 * next-auth reads its public origin from NEXTAUTH_URL. Give it ours (NEXTAUTH_URL or SITE_URL);
 * with neither, trust the request's Host header, which is what a local `next dev` needs.
 */
function applyAuthUrl(url: string | null) {
  if (url) process.env.NEXTAUTH_URL ??= url;
  else process.env.AUTH_TRUST_HOST ??= "1";
}
