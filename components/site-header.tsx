import Link from "next/link";
import type { ReactNode } from "react";

/**
 * The header of every page, public and studio: the archive's name (home), the section's links and
 * an end slot (the studio puts who is signed in there). One component, so both halves of the
 * product look like one. `current` marks the link of the page being shown (aria-current); `id`
 * names the header (the public frame holds its first paint until it is parsed).
 *
 * The archive's name and a `page` link lead to public pages, which load as documents from the page
 * cache (docs/decisions/public-links-are-plain-links.md): a plain <a>, nothing to hydrate or
 * prefetch. The studio's own links stay Next's <Link> (client-side navigation), without prefetch:
 * every studio page is rendered per request, so a prefetch is a server render of the whole header
 * (eight of them on each page the studio opens, on the same two cores as the page's own requests)
 * for a click that has to fetch the page anyway.
 */
export type HeaderLink = { href: string; label: string; current?: boolean; page?: boolean };

export function SiteHeader({
  links,
  label,
  section,
  id,
  children,
}: {
  links: readonly HeaderLink[];
  label: string;
  section?: string;
  id?: string;
  children?: ReactNode;
}) {
  return (
    <header className="site-header" id={id}>
      <div className="site-header__inner">
        <a className="site-name" href="/">
          <svg className="site-name__mark" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
            <rect x="3.5" y="2.5" width="17" height="19" rx="2" fill="none" stroke="currentColor" strokeWidth="1.6" />
            <path d="M7.5 8h9M7.5 12h9M7.5 16h5" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
          </svg>
          Field Notes{section ? <span className="site-name__section"> · {section}</span> : null}
        </a>
        {links.length > 0 ? (
          <nav aria-label={label}>
            <ul>
              {links.map((l) => (
                <li key={l.href}>
                  {l.page ? (
                    <a href={l.href} aria-current={l.current ? "page" : undefined}>
                      {l.label}
                    </a>
                  ) : (
                    <Link href={l.href} prefetch={false} aria-current={l.current ? "page" : undefined}>
                      {l.label}
                    </Link>
                  )}
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        {children ? <div className="site-header__end">{children}</div> : null}
      </div>
    </header>
  );
}
