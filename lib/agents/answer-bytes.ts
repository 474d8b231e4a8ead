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
// can make new ones; a whole export or a home page is hundreds of KB.
const MAX_BODIES = 256;
const MAX_BYTES = 24 * 1024 * 1024;

type Bodies = Map<string, Promise<Encoded | null>> & { bytes?: number };
const byView = new WeakMap<object, Bodies>();
const sizes = new WeakMap<Promise<Encoded | null>, number>();

/**
 * The cached bytes for `key` in this view, or `make()`'s, remembered unless it gives null (a
 * refusal or failure, which is built again next time). Concurrent misses share one build. Headers
 * a build sets are kept with its bytes, so a hit answers them too.
 */
export async function answerBytes(view: PublishedView | object, key: string, make: () => Promise<Made>): Promise<Encoded | null> {
  let bodies = byView.get(view);
  if (!bodies) byView.set(view, (bodies = new Map() as Bodies));
  let entry = bodies.get(key);
  if (entry) {
    bodies.delete(key);
    bodies.set(key, entry);
    return entry;
  }
  entry = make().then((made) =>
    made === null ? null : typeof made === "string" ? { raw: Buffer.from(made, "utf8") } : { raw: Buffer.from(made.text, "utf8"), headers: made.headers },
  );
  bodies.set(key, entry);
  const done = await entry.catch(() => null);
  if (done === null && bodies.get(key) === entry) bodies.delete(key);
  if (done && bodies.get(key) === entry) {
    sizes.set(entry, done.raw.length);
    bodies.bytes = (bodies.bytes ?? 0) + done.raw.length;
  }
  // The least recently used go first (a hit moves to the end), but never the one just made.
  for (const [k, e] of bodies) {
    if (bodies.size <= MAX_BODIES && (bodies.bytes ?? 0) <= MAX_BYTES) break;
    if (k === key) continue;
    bodies.delete(k);
    bodies.bytes = (bodies.bytes ?? 0) - (sizes.get(e) ?? 0);
  }
  return entry;
}
