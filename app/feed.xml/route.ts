import { Feed } from "feed";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { SECTIONS, STATUS_LABEL, STATUS_MEANING, BOUNDARY_LABEL, type Note } from "@/lib/notes/schema";
import { lastChanges } from "@/lib/public/last-change";
import { siteOrigin } from "@/lib/public/origin";
import { renderMarkdown } from "@/lib/render/markdown";
import { noteUrl } from "@/lib/render/urls";

/** The Atom feed: every published note, most recently changed first, read from the current published commit. */

export const dynamic = "force-dynamic";

// The feed of the current commit, kept until main moves (or the site is reached under another origin).
let last: { key: string; xml: string } | null = null;

export async function GET() {
  const [view, origin] = await Promise.all([getPublishedView(), siteOrigin()]);
  const key = `${view.commit} ${origin}`;
  if (last?.key !== key) last = { key, xml: await buildFeed(view, origin) };
  return new Response(last.xml, {
    headers: {
      "Content-Type": "application/atom+xml; charset=utf-8",
      "X-Content-Commit": view.commit,
      "Cache-Control": "no-cache",
    },
  });
}

async function buildFeed(view: PublishedView, origin: string): Promise<string> {
  const changes = await lastChanges(view);
  const linkable = new Set(view.byId.keys());
  const dated = view.notes
    .map((note) => ({ note, change: changes.get(note.id) }))
    .sort((a, b) => (b.change?.date ?? "").localeCompare(a.change?.date ?? "") || b.note.order - a.note.order);
  const newest = dated[0]?.change?.date;

  const feed = new Feed({
    title: view.site.title,
    description: view.site.lede,
    id: `${origin}/`,
    link: `${origin}/`,
    language: "en",
    updated: newest ? new Date(newest) : new Date(0),
    generator: "Field Notes",
    feedLinks: { atom: `${origin}/feed.xml` },
    author: { name: view.site.author },
    copyright: `${view.site.author}`,
  });

  for (const { note, change } of dated) {
    const url = `${origin}${noteUrl(note.id)}`;
    feed.addItem({
      title: `${note.id}: ${note.title}`,
      id: url,
      link: url,
      description: note.summary,
      content: entryHtml(note, origin, linkable),
      date: change ? new Date(change.date) : new Date(0),
      author: [{ name: change?.author.name ?? view.site.author }],
      category: note.tags.map((t) => ({ name: t, term: t })),
    });
  }

  return feed.atom1();
}

/** The note as a feed reader shows it: status in words, then each written section, links made absolute. */
function entryHtml(note: Note, origin: string, linkable: ReadonlySet<string>): string {
  const status = `<p><strong>${STATUS_LABEL[note.status]}</strong>: ${escape(STATUS_MEANING[note.status])}${note.boundaries.length ? ` Boundaries: ${note.boundaries.map((b) => BOUNDARY_LABEL[b]).join(", ")}.` : ""}</p>`;
  const sections = SECTIONS.filter((s) => note.sections[s.key])
    .map((s) => `<h2>${s.heading}</h2>\n${renderMarkdown(note.sections[s.key], { linkable, idPrefix: `${note.id}-${s.key}` })}`)
    .join("\n");
  return `${status}\n${sections}`.replace(/href="\/(?!\/)/g, `href="${origin}/`);
}

function escape(s: string) {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}
