/**
 * Long lists on public pages come in pages of PAGE_SIZE, so a page's size (and its inline RSC data)
 * stays bounded however large the archive grows. `?page=N` counts from 1.
 */

export const PAGE_SIZE = 50;

export type Paged<T> = {
  items: T[];
  page: number;
  pages: number;
  total: number;
  /** Set when `?page=` named no page: what was asked, said so on the page (page 1 is shown). */
  problem: string | null;
};

export function paginate<T>(list: readonly T[], param: string | string[] | null | undefined, size = PAGE_SIZE): Paged<T> {
  const pages = Math.max(1, Math.ceil(list.length / size));
  const raw = Array.isArray(param) ? param[0] : param;
  let page = 1;
  let problem: string | null = null;
  if (raw !== undefined && raw !== null && raw !== "") {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1) problem = `“${raw.slice(0, 40)}” is not a page number; pages count from 1.`;
    else if (n > pages) problem = `There is no page ${n}: there ${pages === 1 ? "is 1 page" : `are ${pages} pages`}.`;
    else page = n;
  }
  return { items: list.slice((page - 1) * size, page * size), page, pages, total: list.length, problem };
}
