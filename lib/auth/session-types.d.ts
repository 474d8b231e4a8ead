import type { Role } from "@/lib/rules/status-machine";

declare module "next-auth" {
  interface Session {
    /** Who the session belongs to now (re-read on every request), or absent when the session has ended (lib/auth/sessions.ts). */
    actor?: { id: string; name: string; role: Role };
  }
  interface User {
    /** Set by the password sign-in: the account's session key as its password was checked. */
    sessionKey?: string;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    /** The identity's session key at sign-in (lib/auth/sessions.ts); a session whose key is no longer the identity's has ended. */
    sk?: string;
  }
}
