import type { PublishedView } from "@/lib/content/published";
import { SECTIONS, STATUS_LABEL, STATUS_MEANING, BOUNDARY_LABEL, type Note } from "@/lib/notes/schema";
import { renderSection } from "@/lib/render/sections";
import { noteUrl, phaseUrl, slug, tagHasPage, tagUrl } from "@/lib/web/urls";
import type { Revision } from "@/lib/store/types";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";

/**
 * The Atom feed, written element by element. Every value that comes from a note or the site file
 * goes through `text` or `attr`, so an `&`, a `<` or a quote in a title, tag or phase can neither
 * break the XML nor become markup: titles and summaries are `type="text"` (a feed reader shows them
 * as written), and the one `type="html"` element, the entry's content, holds the sanitised note
 * HTML escaped once more for XML. (The `feed` package wrapped raw titles in CDATA as `type="html"`
 * and put tags into attributes unescaped; that is why this file exists.)
 */

/**
 * Which notes a feed holds and what it is called: the whole archive (/feed.xml), or one slice of it
 * (a tag, a phase, a status), chosen by the same functions as the slice's page. `page` and `feed`
 * are site paths (the page the feed follows, the feed's own address).
 */
export type FeedSlice = { notes: readonly Note[]; title: string; page: string; feed: string };

export type FeedInput = {
  view: PublishedView;
  origin: string;
  changes: ReadonlyMap<string, Revision>;
  /** The renamed phases' titles (lib/content/phases.ts `phaseTitlesAt`): a phase category's label. */
  titles: PhaseTitles;
  /** One slice of the archive; the whole archive when absent. */
  slice?: FeedSlice;
  /** The WebSub hub subscribers are told to use (WEBSUB_HUB); none when null or absent. */
  hub?: string | null;
};

/** The whole archive as a feed slice: /feed.xml. */
export const wholeArchive = (view: Pick<PublishedView, "notes" | "site">): FeedSlice => ({
  notes: view.notes,
  title: view.site.title,
  page: "/",
  feed: "/feed.xml",
});

export async function atomFeed({ view, origin, changes, titles, slice = wholeArchive(view), hub = null }: FeedInput): Promise<string> {
  const linkable = new Set(view.byId.keys());
  const dated = slice.notes
    .map((note) => ({ note, change: changes.get(note.id) }))
    .sort((a, b) => (b.change?.date ?? "").localeCompare(a.change?.date ?? "") || b.note.order - a.note.order);
  const newest = dated[0]?.change?.date;

  const lines = [
    `<?xml version="1.0" encoding="utf-8"?>`,
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">`,
    `  <id>${text(`${origin}${slice.page}`)}</id>`,
    `  <title type="text">${text(slice.title)}</title>`,
    `  <subtitle type="text">${text(view.site.lede)}</subtitle>`,
    `  <updated>${isoDate(newest)}</updated>`,
    `  <generator>Field Notes</generator>`,
    `  <link rel="alternate" type="text/html" href="${attr(`${origin}${slice.page}`)}"/>`,
    `  <link rel="self" type="application/atom+xml" href="${attr(`${origin}${slice.feed}`)}"/>`,
    // WebSub (W3C, section 4): the hub and the topic (the self link above) a subscriber registers with.
    ...(hub ? [`  <link rel="hub" href="${attr(hub)}"/>`] : []),
    `  <author><name>${text(view.site.author)}</name></author>`,
    `  <rights type="text">${text(view.site.author)}</rights>`,
  ];
  // Every section rendered off this thread first (kept by content, so a later feed reuses them).
  const content = await Promise.all(dated.map(({ note }) => entryHtml(note, origin, linkable)));
  for (const [i, { note, change }] of dated.entries()) {
    const url = `${origin}${noteUrl(note.id)}`;
    lines.push(
      `  <entry>`,
      `    <id>${text(url)}</id>`,
      `    <title type="text">${text(`${note.id}: ${note.title}`)}</title>`,
      `    <link rel="alternate" type="text/html" href="${attr(url)}"/>`,
      `    <updated>${isoDate(change?.date)}</updated>`,
      `    <author><name>${text(change?.author.name ?? view.site.author)}</name></author>`,
      // scheme + term is the archive's page for the tag or phase, as Atom suggests for a category.
      ...note.tags.map((tag) => `    ${tagHasPage(tag) ? category(origin, tagUrl(tag), tag) : `<category term="${attr(tag)}"/>`}`),
      `    ${category(origin, phaseUrl(note.phase), shownPhase(titles, note.phase))}`,
      `    <summary type="text">${text(note.summary)}</summary>`,
      `    <content type="html">${text(content[i] ?? "")}</content>`,
      `  </entry>`,
    );
  }
  lines.push(`</feed>`, "");
  return lines.join("\n");
}

function category(origin: string, pageUrl: string, label: string): string {
  const cut = pageUrl.lastIndexOf("/") + 1;
  return `<category scheme="${attr(origin + pageUrl.slice(0, cut))}" term="${attr(pageUrl.slice(cut) || slug(label))}" label="${attr(label)}"/>`;
}

/** The note as a feed reader shows it: status in words, then each written section, links made absolute. */
async function entryHtml(note: Note, origin: string, linkable: ReadonlySet<string>): Promise<string> {
  const boundaries = note.boundaries.length ? ` Boundaries: ${note.boundaries.map((b) => BOUNDARY_LABEL[b]).join(", ")}.` : "";
  const status = `<p><strong>${html(STATUS_LABEL[note.status])}</strong>: ${html(STATUS_MEANING[note.status] + boundaries)}</p>`;
  const written = SECTIONS.filter((s) => note.sections[s.key]);
  const rendered = await Promise.all(written.map((s) => renderSection(note.sections[s.key], { linkable, idPrefix: `${note.id}-${s.key}` })));
  const sections = written.map((s, i) => `<h2>${html(s.heading)}</h2>\n${rendered[i] ?? ""}`).join("\n");
  // A reader resolves links against the feed, not the site: make the archive's own links absolute.
  return `${status}\n${sections}`.replace(/(href|src)="\/(?!\/)/g, (_, name: string) => `${name}="${html(origin)}/`);
}

function isoDate(date: string | undefined): string {
  const d = date ? new Date(date) : new Date(0);
  return (Number.isNaN(d.getTime()) ? new Date(0) : d).toISOString();
}

// Characters XML 1.0 does not allow at all (controls, lone surrogates, U+FFFE/U+FFFF): dropped, or the
// whole feed would be refused by every parser.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Character data of an element: the text as written, never markup. */
export function text(value: string): string {
  return value.replace(NOT_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A double-quoted attribute value; whitespace kept as references so a parser does not fold it. */
export function attr(value: string): string {
  return text(value).replace(/"/g, "&quot;").replace(/\t/g, "&#9;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;");
}

/** Text inside the entry's HTML (before it is escaped again for XML). */
const html = (value: string) => text(value).replace(/"/g, "&quot;");
