import Link from "next/link";
import type { ReactNode } from "react";
import { SearchForm } from "@/components/search-form";

/** The public archive's frame: a header with the way home, search and the agent formats; a footer with the feed. */
export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="site-header">
        <div className="site-header__inner">
          <Link className="site-name" href="/">
            Field Notes
          </Link>
          <nav aria-label="Site">
            <ul>
              <li>
                <Link href="/#records">All records</Link>
              </li>
              <li>
                <Link href="/agents/" prefetch={false}>
                  For agents
                </Link>
              </li>
            </ul>
          </nav>
          <SearchForm id="site-search" compact />
        </div>
      </header>
      <main id="main" className="page">
        {children}
      </main>
      <footer className="site-footer">
        <div className="site-footer__inner">
          <p>Public architecture only · evidence-bound · every note is a file in a git repository.</p>
          <ul>
            <li>
              <a href="/feed.xml">Atom feed</a>
            </li>
            <li>
              <a href="/llms.txt">llms.txt</a>
            </li>
            <li>
              <a href="/agents/index.json">JSON index</a>
            </li>
            <li>
              <a href="/sitemap.xml">Sitemap</a>
            </li>
            <li>
              <a href="/studio">Studio</a>
            </li>
          </ul>
        </div>
      </footer>
    </>
  );
}
