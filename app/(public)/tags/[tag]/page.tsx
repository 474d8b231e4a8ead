import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { CommitLine } from "@/components/commit-line";
import { NoteList } from "@/components/note-card";
import { getPublishedView } from "@/lib/content/published";
import { pageMetadata } from "@/lib/public/meta";
import { segment, slug, tagUrl } from "@/lib/render/urls";

/** Every published note with one tag: /tags/sparse-attention. */

type Props = { params: Promise<{ tag: string }> };

async function load(params: Props["params"]) {
  await connection();
  const wanted = slug(segment((await params).tag));
  const view = await getPublishedView();
  const notes = view.notes.filter((n) => n.tags.some((t) => slug(t) === wanted));
  // The tag as its notes spell it (the most common spelling when notes differ in case).
  const names = notes.flatMap((n) => n.tags.filter((t) => slug(t) === wanted));
  const name = mostCommon(names);
  return name ? { view, notes, name } : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Tag not found", robots: { index: false } };
  return pageMetadata({
    title: `Tag: ${found.name}`,
    description: `${found.notes.length} ${found.notes.length === 1 ? "note" : "notes"} of ${found.view.site.title} tagged “${found.name}”.`,
    path: tagUrl(found.name),
  });
}

export default async function TagPage({ params }: Props) {
  const found = await load(params);
  if (!found) notFound();
  const { view, notes, name } = found;
  return (
    <>
      <header className="page-head">
        <p className="kicker">
          <Link href="/">{view.site.title}</Link>
        </p>
        <h1>
          Tag: <span className="tag-name">{name}</span>
        </h1>
        <p className="counts">
          {notes.length} of {view.notes.length} notes
        </p>
      </header>
      <NoteList notes={notes} label={`Notes tagged ${name}`} />
      <CommitLine commit={view.commit} />
    </>
  );
}

function mostCommon(values: string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}
