import type { Paged } from "@/lib/public/page-numbers";

/** "Previous" and "next" links under a paged list, keeping the page's other query parameters. */
export function Pager({ paged, href, label }: { paged: Paged<unknown>; href: (page: number) => string; label: string }) {
  if (paged.pages <= 1 && !paged.problem) return null;
  return (
    <nav className="pager" aria-label={label}>
      {paged.problem ? (
        <p className="empty" role="status">
          {paged.problem}
        </p>
      ) : null}
      <p>
        Page {paged.page} of {paged.pages} ({paged.total} in all){" "}
        {paged.page > 1 ? (
          <a rel="prev" href={href(paged.page - 1)}>
            ← Previous
          </a>
        ) : null}{" "}
        {paged.page < paged.pages ? (
          <a rel="next" href={href(paged.page + 1)}>
            Next →
          </a>
        ) : null}
      </p>
    </nav>
  );
}
