/**
 * Pages of the compact index for a large archive. A page holds INDEX_PAGE_SIZE entries in the
 * index's own order; the cursor of the next page is the ID of the last note on this one, so a
 * page still starts in the right place when notes are added before it between two requests. A
 * cursor that names no published note is refused with what to do instead.
 */

export const INDEX_PAGE_SIZE = 500;

export type IndexPage<T> = { ok: true; notes: T[]; next: string | null } | { ok: false; error: string };

export function indexPage<T extends { id: string }>(notes: readonly T[], cursor: string | null, size = INDEX_PAGE_SIZE): IndexPage<T> {
  let start = 0;
  if (cursor !== null) {
    const at = notes.findIndex((n) => n.id === cursor);
    if (at < 0) return { ok: false, error: `cursor "${cursor}" names no published note; start again from the first page (no cursor)` };
    start = at + 1;
  }
  const page = notes.slice(start, start + size);
  const next = start + size < notes.length ? (page.at(-1)?.id ?? null) : null;
  return { ok: true, notes: page, next };
}
