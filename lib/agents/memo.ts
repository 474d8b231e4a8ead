import type { PublishedView } from "@/lib/content/published";

/**
 * Documents derived from one published view, built once: the view is itself cached per commit,
 * so a new commit on main brings a new view and these are rebuilt on its first request.
 */

const byView = new WeakMap<PublishedView, Map<string, unknown>>();

export function derived<T>(view: PublishedView, key: string, build: () => T): T {
  let docs = byView.get(view);
  if (!docs) byView.set(view, (docs = new Map()));
  if (!docs.has(key)) docs.set(key, build());
  return docs.get(key) as T;
}
