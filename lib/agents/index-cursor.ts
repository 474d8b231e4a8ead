/**
 * Pages of the compact index for a large archive, in the index's own order; the cursor of the
 * next page is the ID of the last note on this one, so a page still starts in the right place
 * when notes are added before it between two requests. A cursor that names no published note is
 * refused with what to do instead.
 *
 * A page is sized for an agent that reads it in one fetch: under 50,000 characters, the line
 * below which afdocs (`npm run check:agents`) says an llms.txt is not truncated by agents, at
 * about 100,000 most truncate (docs/decisions/index-page-size.md). A Markdown line (llms.txt,
 * /agents/index.md) is about 260 characters and at most 60 tokens, so 100 lines are about 27 KB
 * and 6,000 tokens; a JSON entry, with every URL and pretty-printed, is about 1,100 characters,
 * so 30 entries are about 35–40 KB (a truncated JSON page would not even parse).
 */

export const INDEX_PAGE_SIZE = 100;
export const INDEX_JSON_PAGE_SIZE = 30;

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
