/**
 * Route handlers the proxy may call itself. A route's module offers its handler when it loads;
 * the proxy (proxy.ts, through lib/http/page-cache.ts) then answers that route's requests by
 * calling it, without Next's route pipeline around it (request adaptation, streams, tracing): at
 * 10,000 notes, 30 new search queries one at a time took 10.4–11.4 ms at p50 through the route and
 * 8.3–9.1 ms called from the proxy, whose own floor (a kept capsule) is 3.1–4.1 ms.
 *
 * Why a registry and not an import: the proxy is its own bundle layer, and importing the handler
 * would load a second copy of everything under it (the read model, the search client, the agent
 * formats); the handler offered here is the route layer's own, with its caches. On globalThis,
 * which the layers share. Until the route's module has loaded (its first request) nothing is
 * offered, and the request goes on to the route as before.
 *
 * Only a handler that needs nothing of Next's request scope (no `headers()`, `cookies()`, `after()`)
 * may be offered: it is called outside it.
 */

export type DirectHandler = (request: Request) => Response | Promise<Response>;

const KEY = Symbol.for("field-notes.direct-routes");
const holder = globalThis as typeof globalThis & { [KEY]?: Map<string, DirectHandler> };
const routes = () => (holder[KEY] ??= new Map());

/** Offer `handler` for GET requests to `pathname`. */
export function offerDirect(pathname: string, handler: DirectHandler): void {
  routes().set(pathname, handler);
}

/** The handler offered for `pathname`, if its route's module has loaded. */
export function directHandler(pathname: string): DirectHandler | undefined {
  return routes().get(pathname);
}
