import type { Role } from "@/lib/rules/status-machine";

declare module "next-auth" {
  interface Session {
    /** Who the session belongs to now (re-read on every request), or absent when that account is gone. */
    actor?: { id: string; name: string; role: Role };
  }
}
