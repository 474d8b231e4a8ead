import Link from "next/link";
import type { ReactNode } from "react";
import { SearchForm } from "@/components/search-form";

/**
 * The public archive's frame: a header with the way home, search and the agent formats; a footer
 * with the feed. In the head and in the first lines of the body, the pointer to /llms.txt: an agent
 * reading any page's source learns at once where the index is. In the body it is a link
 * (what checkers look for), after the skip link, hidden from sight until it has focus, never from
 * screen readers or agents.
 */
export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      {/* React puts a <link> in the document head wherever it is rendered. */}
      <link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt: the index of this archive for agents" />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <a className="agent-pointer" href="/llms.txt">
        For AI agents: the index of this archive is /llms.txt, and every page has a Markdown twin at its URL with .md added.
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
