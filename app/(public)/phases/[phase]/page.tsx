import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { CommitLine } from "@/components/commit-line";
import { NoteList } from "@/components/note-card";
import { Pager } from "@/components/pager";
import { paginate } from "@/lib/public/page-numbers";
import { PhaseRecord } from "@/components/phase-record";
import { getPublishedPhases } from "@/lib/content/phases";
import { getPublishedView } from "@/lib/content/published";
import { feedUrl } from "@/lib/public/slices";
import { pageMetadata } from "@/lib/public/meta";
import { phasePage } from "@/lib/public/pages";
import { comparePhases } from "@/lib/public/record-query";
import { phaseUrl } from "@/lib/web/urls";
import { phaseTitle, phaseTitlesOf } from "@/lib/phases/schema";

/** One phase: its status, its closeout record and its published notes: /phases/6-architecture. */

type Props = { params: Promise<{ phase: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

async function load(params: Props["params"]) {
  await connection();
  const view = await getPublishedView();
  const { phases } = await getPublishedPhases(view);
  // The same phase and notes as the Markdown twin (/phases/<slug>.md).
  const found = phasePage(view, phases, (await params).phase);
  if (!found) return null;
  return found.orphan ? { view, phase: found.phase, phases, orphan: true } : { view, phase: found.phase, phases };
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const found = await load(params);
  if (!found) return { title: "Phase not found", robots: { index: false } };
  const { phase } = found.phase;
  const shown = phaseTitle(phase);
  return pageMetadata({
    title: `Phase ${shown}`,
    description: `Phase ${shown} of ${found.view.site.title}: ${phase.status}, ${found.phase.notes.length} ${found.phase.notes.length === 1 ? "note" : "notes"}.`,
    path: phaseUrl(phase.name),
    feed: { url: feedUrl.phase(phase.name), title: `Phase ${shown}` },
  });
}

export default async function PhasePage({ params, searchParams }: Props) {
  const pageParam = (await searchParams).page;
  const found = await load(params);
  if (!found) notFound();
  const { view, phase, phases } = found;
  const orphan = "orphan" in found;
  const paged = paginate(phase.notes, pageParam);
  return (
    <>
      <header className="page-head">
        <h1>Phase {phaseTitle(phase.phase)}</h1>
        <p className="kicker">
          <a href={`/?phase=${encodeURIComponent(phase.phase.slug)}&view=table#records`}>This phase in the table of all decision records</a> ·{" "}
          <a href={feedUrl.phase(phase.phase.name)} type="application/atom+xml">
            Atom feed of this phase
          </a>
        </p>
        {phase.phase.description && <p className="lede">{phase.phase.description}</p>}
        <p className="counts">
          {orphan ? "" : `${phase.phase.status} · `}
          {phase.notes.length} of {view.notes.length} notes
        </p>
      </header>
      {orphan ? (
        <p className="notice">This phase has no phase record in the archive yet, so no status or closeout is shown.</p>
      ) : (
        <PhaseRecord view={phase} linkable={view.byId} />
      )}
      {phase.notes.length > 0 ? (
        <>
          <NoteList notes={paged.items} titles={phaseTitlesOf(phases.map((p) => p.phase))} label={`Notes of Phase ${phaseTitle(phase.phase)}`} />
          <Pager paged={paged} href={(n) => `?page=${n}`} label={`Pages of notes of Phase ${phaseTitle(phase.phase)}`} />
        </>
      ) : (
        <p className="empty">No published note names this phase yet.</p>
      )}
      <nav className="filter-bar" aria-label="Other phases">
        <span className="filter-bar__label">Other phases:</span>
        <ul>
          {phases
            .filter((p) => p !== phase)
            // By number, then the named phases: a reader looks for "Phase 5" between 4 and 6.
            .sort((a, b) => comparePhases(a.phase.name, b.phase.name))
            .map((p) => (
              <li key={p.phase.slug}>
                <a href={phaseUrl(p.phase.name)}>Phase {phaseTitle(p.phase)}</a>
              </li>
            ))}
        </ul>
      </nav>
      <CommitLine commit={view.commit} />
    </>
  );
}
