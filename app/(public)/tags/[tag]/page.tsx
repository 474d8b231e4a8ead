import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { CommitLine } from "@/components/commit-line";
import { NoteList } from "@/components/note-card";
import { Pager } from "@/components/pager";
import { paginate } from "@/lib/public/page-numbers";
import { getPublishedView } from "@/lib/content/published";
import { phaseTitlesAt } from "@/lib/content/phases";
import { feedUrl } from "@/lib/public/slices";
import { pageMetadata } from "@/lib/public/meta";
import { tagPage } from "@/lib/public/pages";
import { slug, tagUrl } from "@/lib/web/urls";

/** Every published note with one tag: /tags/sparse-attention. */

type Props = { params: Promise<{ tag: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(params: Props["params"]) {
  await connection();
  const view = await getPublishedView();
  // The same notes and name as the Markdown twin (/tags/<tag>.md).
  const found = tagPage(view, (await params).tag);
  return found ? { view, ...found } : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Tag not found", robots: { index: false } };
  return pageMetadata({
    title: `Tag: ${found.name}`,
    description: `${found.notes.length} ${found.notes.length === 1 ? "note" : "notes"} of ${found.view.site.title} tagged “${found.name}”.`,
    path: tagUrl(found.name),
    feed: { url: feedUrl.tag(found.name), title: `Tag: ${found.name}` },
  });
}

export default async function TagPage({ params, searchParams }: Props) {
  const pageParam = (await searchParams).page;
  const found = await load(params);
  if (!found) notFound();
  const { view, notes, name } = found;
  const paged = paginate(notes, pageParam);
  const titles = await phaseTitlesAt(view.commit);
  return (
    <>
      <header className="page-head">
        <h1>
          Tag: <span className="tag-name">{name}</span>
        </h1>
        <p className="kicker">
          <a href={`/?tag=${encodeURIComponent(slug(name))}#records`}>Filter all decision records by this tag</a> ·{" "}
          <a href={feedUrl.tag(name)} type="application/atom+xml">
            Atom feed of this tag
          </a>
        </p>
        <p className="counts">
          {notes.length} of {view.notes.length} notes
        </p>
      </header>
      <NoteList notes={paged.items} titles={titles} label={`Notes tagged ${name}`} />
      <Pager paged={paged} href={(n) => `?page=${n}`} label={`Pages of notes tagged ${name}`} />
      <CommitLine commit={view.commit} />
    </>
  );
}
