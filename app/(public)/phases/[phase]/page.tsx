import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { CommitLine } from "@/components/commit-line";
import { NoteList } from "@/components/note-card";
import { getPublishedView } from "@/lib/content/published";
import { pageMetadata } from "@/lib/public/meta";
import { phaseUrl, segment, slug } from "@/lib/render/urls";

/** Every published note of one phase: /phases/6-architecture. */

type Props = { params: Promise<{ phase: string }> };

async function load(params: Props["params"]) {
  await connection();
  const wanted = slug(segment((await params).phase));
  const view = await getPublishedView();
  const notes = view.notes.filter((n) => slug(n.phase) === wanted);
  const phase = notes[0]?.phase;
  return phase ? { view, notes, phase } : null;
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Phase not found", robots: { index: false } };
  return pageMetadata({
    title: `Phase ${found.phase}`,
    description: `${found.notes.length} ${found.notes.length === 1 ? "note" : "notes"} of ${found.view.site.title} from Phase ${found.phase}.`,
    path: phaseUrl(found.phase),
  });
}

export default async function PhasePage({ params }: Props) {
  const found = await load(params);
  if (!found) notFound();
  const { view, notes, phase } = found;
  const phases = [...new Set(view.notes.map((n) => n.phase))];
  return (
    <>
      <header className="page-head">
        <p className="kicker">
          <Link href="/">{view.site.title}</Link>
        </p>
        <h1>Phase {phase}</h1>
        <p className="counts">
          {notes.length} of {view.notes.length} notes
        </p>
      </header>
      <NoteList notes={notes} label={`Notes of Phase ${phase}`} />
      <nav className="filter-bar" aria-label="Other phases">
        <span className="filter-bar__label">Other phases:</span>
        <ul>
          {phases
            .filter((p) => p !== phase)
            .map((p) => (
              <li key={p}>
                <Link href={phaseUrl(p)}>Phase {p}</Link>
              </li>
            ))}
        </ul>
      </nav>
      <CommitLine commit={view.commit} />
    </>
  );
}
