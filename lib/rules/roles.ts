import type { Role } from "./status-machine";

/**
 * Whether an account with `role` may make a request that needs `required` (none: anyone signed
 * in). Each studio route declares the role it needs (`route({ role })`, lib/api/route.ts); the
 * route's actor check and the MCP endpoint's tool list both ask this, of that declaration.
 */
export function roleMay(role: Role, required: Role | undefined): boolean {
  return required === undefined || role === required;
}
