import { LRUCache } from "lru-cache";
import type { PublishedView } from "@/lib/content/published";

/**
 * Documents derived from one published view, built once: the view is itself cached per commit,
 * so a new commit on main brings a new view and these are rebuilt on its first request.
 *
 * Documents holding absolute URLs are keyed by the origin as well (the caller puts it in `key`),
 * so one host's answer is never served to another. Since any client can name any host when
 * SITE_URL is unset, a view keeps at most MAX_DOCUMENTS, the least recently used going first:
 * a flood of forged hosts costs its own requests a rebuild, never the server its memory.
 */

export const MAX_DOCUMENTS = 2048;

const byView = new WeakMap<PublishedView, LRUCache<string, { doc: unknown }>>();

export function perView<T>(view: PublishedView, key: string, build: () => T): T {
  let docs = byView.get(view);
  if (!docs) byView.set(view, (docs = new LRUCache({ max: MAX_DOCUMENTS })));
  const hit = docs.get(key);
  if (hit) return hit.doc as T;
  const doc = build();
  docs.set(key, { doc });
  return doc;
}
