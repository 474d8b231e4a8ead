import { LRUCache } from "lru-cache";
import type { PublishedView } from "@/lib/content/published";

/**
 * An agent document's bytes, serialised once per commit (and origin, and URL) instead of once per
 * request. Always identity bytes: `next start` drops a handler's or the proxy's Content-Encoding
 * and compresses the body itself (next/dist/server/send-response.js), so bytes compressed here
 * reached clients as gzip inside gzip; Next's own compression applies to these.
 */

/** The bytes, and the headers the route set for this answer (a `Link` to the next page), kept with them. */
export type Encoded = { raw: Buffer; headers?: Readonly<Record<string, string>> };
/** What a build makes: the text, or the text and the headers that belong to it; null is a refusal. */
export type Made = string | { text: string; headers: Readonly<Record<string, string>> } | null;

// Bounded per view, in count and in bytes: a search URL is a new key per query, and any client
// can make new ones; a whole export or a home page is hundreds of KB. An answer heavier than the
// whole bound is answered, not kept.
const MAX_BODIES = 256;
const MAX_BYTES = 24 * 1024 * 1024;

/** Per view: the bytes kept, least recently used first out, and the builds under way (concurrent misses share one). */
type Bodies = { kept: LRUCache<string, Encoded>; making: Map<string, Promise<Encoded | null>> };
const byView = new WeakMap<object, Bodies>();
const newBodies = (): Bodies => ({
  kept: new LRUCache({ max: MAX_BODIES, maxSize: MAX_BYTES, sizeCalculation: (e) => Math.max(1, e.raw.length) }),
  making: new Map(),
});

/**
 * The cached bytes for `key` in this view, or `make()`'s, remembered unless it gives null (a
 * refusal or failure, which is built again next time). Concurrent misses share one build. Headers
 * a build sets are kept with its bytes, so a hit answers them too.
 */
export function answerBytes(view: PublishedView | object, key: string, make: () => Promise<Made>): Promise<Encoded | null> {
  let bodies = byView.get(view);
  if (!bodies) byView.set(view, (bodies = newBodies()));
  const kept = bodies.kept.get(key);
  if (kept) return Promise.resolve(kept);
  const under = bodies.making.get(key);
  if (under) return under;
  const { making } = bodies;
  const made = make().then((built): Encoded | null =>
    built === null ? null : typeof built === "string" ? { raw: Buffer.from(built, "utf8") } : { raw: Buffer.from(built.text, "utf8"), headers: built.headers },
  );
  making.set(key, made);
  void made.then(
    (done) => {
      if (done) bodies.kept.set(key, done);
      making.delete(key);
    },
    () => making.delete(key),
  );
  return made;
}
