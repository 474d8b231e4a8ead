import { promisify } from "node:util";
import zlib from "node:zlib";
import type { PublishedView } from "@/lib/content/published";

/**
 * An agent document's bytes, serialised once per commit (and origin, and URL) instead of once per
 * request, and compressed once per encoding a client asks for. Compression runs on libuv's thread
 * pool (zlib's async calls), so a large index being compressed never holds up another request.
 */

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

/** The bytes, their compressed forms, and the headers the route set for this answer (a `Link` to the next page), kept with them. */
export type Encoded = { raw: Buffer; gzip?: Promise<Buffer>; br?: Promise<Buffer>; headers?: Readonly<Record<string, string>> };
/** What a build makes: the text, or the text and the headers that belong to it; null is a refusal. */
export type Made = string | { text: string; headers: Readonly<Record<string, string>> } | null;

// Bounded per view, in count and in bytes: a search URL is a new key per query, and any client
// can make new ones; a whole export or a home page is hundreds of KB, with its compressed forms.
const MAX_BODIES = 256;
const MAX_BYTES = 48 * 1024 * 1024;
// Below this, compressing costs more than it saves.
const MIN_COMPRESS = 1024;

type Bodies = Map<string, Promise<Encoded | null>> & { bytes?: number };
const byView = new WeakMap<object, Bodies>();
const sizes = new WeakMap<Promise<Encoded | null>, number>();

/**
 * The cached bytes for `key` in this view, or `make()`'s, remembered unless it gives null (a
 * refusal or failure, which is built again next time). Concurrent misses share one build. Headers
 * a build sets are kept with its bytes, so a hit answers them too.
 */
export async function cachedBytes(view: PublishedView | object, key: string, make: () => Promise<Made>): Promise<Encoded | null> {
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
    // Counted at most twice the raw size: the compressed forms are smaller than the body.
    sizes.set(entry, 2 * done.raw.length);
    bodies.bytes = (bodies.bytes ?? 0) + 2 * done.raw.length;
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

/** The body for this request's Accept-Encoding (brotli, else gzip, else as is) and its Content-Encoding. */
export async function encodedFor(acceptEncoding: string | null, encoded: Encoded): Promise<{ body: Buffer; encoding: string | null }> {
  if (encoded.raw.length < MIN_COMPRESS) return { body: encoded.raw, encoding: null };
  const accepts = acceptedEncodings(acceptEncoding);
  if (accepts.has("br")) {
    encoded.br ??= brotli(encoded.raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: encoded.raw.length } });
    return { body: await encoded.br, encoding: "br" };
  }
  if (accepts.has("gzip")) {
    encoded.gzip ??= gzip(encoded.raw, { level: 6 });
    return { body: await encoded.gzip, encoding: "gzip" };
  }
  return { body: encoded.raw, encoding: null };
}

/** Encodings the client accepts (q > 0). */
function acceptedEncodings(header: string | null): Set<string> {
  const out = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
}
