import type { ReactNode } from "react";
import { SearchForm } from "@/components/search-form";
import { SiteHeader } from "@/components/site-header";

/** The header's id, which the first paint waits for (below). */
const SITE_HEADER_ID = "site-header";

/**
 * The public archive's frame, content first. The header (name, links, search) follows <main> in
 * the source and is drawn above it (CSS order in frame.css), so a screen reader, a text browser,
 * the keyboard's first Tab or an agent reading the source meets the page's own content before the
 * site's chrome, while a sighted reader sees the usual header on top. The header is a landmark
 * ("Site" navigation) and the next Tab stops after the content.
 *
 * The pointer to /llms.txt is for agents that read HTML (afdocs' llms-txt-directive-html looks for
 * it near the top of the content): it is in the source, but out of sight, out of the Tab order and
 * out of the accessibility tree, so nobody hears "For AI agents" before a page's title. People find
 * llms.txt in the footer.
 *
 * Because the header comes after <main>, a browser that paints while the document is still being
 * parsed (a slow network, a busy CPU) first draws the content at the top and then pushes it down by
 * the header's height once the header is parsed: a layout shift of the whole screen (CLS 0.098 in
 * Lighthouse, issue 27). `<link rel="expect" blocking="render">` holds the first paint until the
 * header is parsed, so the first frame already has it on top
 * (docs/decisions/pages-hold-still-while-loading.md).
 */
export default function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="frame frame--content-first">
      {/* React puts a <link> in the document head wherever it is rendered. */}
      <link rel="alternate" type="text/plain" href="/llms.txt" title="llms.txt: the index of this archive for agents" />
      <link rel="expect" href={`#${SITE_HEADER_ID}`} blocking="render" />
      <a className="agent-pointer" href="/llms.txt" aria-hidden="true" tabIndex={-1}>
        For AI agents: /llms.txt
      </a>
      <main id="main" className="page">
        {children}
      </main>
      <SiteHeader
        id={SITE_HEADER_ID}
        label="Site"
        links={[
          { href: "/#records", label: "All records", page: true },
          { href: "/search", label: "Search", page: true },
          { href: "/agents/", label: "For agents", page: true },
        ]}
      >
        <SearchForm id="site-search" compact />
      </SiteHeader>
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
    </div>
  );
}
