import type { Metadata } from "next";
import { connection } from "next/server";
import { CommitLine } from "@/components/commit-line";
import { Highlight } from "@/components/highlight";
import { SearchForm } from "@/components/search-form";
import { StatusBadge } from "@/components/status-badge";
import { getPublishedView } from "@/lib/content/published";
import { phaseTitlesAt } from "@/lib/content/phases";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { pageMetadata } from "@/lib/public/meta";
import { noteUrl, searchUrl } from "@/lib/web/urls";
import { FIELD_LABEL, searchNotes, searchReady } from "@/lib/search";
import { highlightRanges } from "@/lib/public/highlight";
import { phaseUrl, tagHasPage, tagUrl } from "@/lib/web/urls";
import { comparePhases, compareNames } from "@/lib/public/record-query";
import type { Note } from "@/lib/notes/schema";
import { foldWeakMatches } from "@/lib/public/search-results";
import type { SearchHit } from "@/lib/search";
import type { PublishedView } from "@/lib/content/published";

/** Full-text search, on the server: /search?q=sparse+attention works without JavaScript and can be shared. */

const SHOWN_ABOVE = new Set(["title", "id"]);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

async function query(searchParams: Props["searchParams"]) {
  const q = (await searchParams).q;
  return (Array.isArray(q) ? q[0] : q)?.trim().slice(0, 500) ?? "";
}

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  await connection();
  const q = await query(searchParams);
  return {
    ...pageMetadata({
      title: q ? `Search: ${q}` : "Search",
      description: "Search every field of the published notes: title, summary, tags, phase, status and every section.",
      path: q ? searchUrl(q) : "/search",
    }),
    // Result pages are endless permutations of the notes themselves.
    robots: { index: false, follow: true },
  };
}

export default async function SearchPage({ searchParams }: Props) {
  await connection();
  const q = await query(searchParams);
  const view = await getPublishedView();
  // A renamed phase's title is searched as its phase, and shown by the browse list.
  const titles = await phaseTitlesAt(view.commit);
  if (q) await searchReady(view, titles);
  const hits = q ? await searchNotes(view, q, { limit: 50, titles }) : [];
  // The notes about the query first; the ones that only share a stock word are folded below.
  const { strong, weak } = foldWeakMatches(hits);
  return (
    <>
      <header className="page-head search-page">
        <h1>Search</h1>
        <SearchForm q={q} id="search-page-q" />
      </header>
      {q ? (
        <section aria-labelledby="results-heading">
          <h2 id="results-heading" className="results-count" role="status">
            {hits.length === 0
              ? `No note matches “${q}”`
              : `${strong.length} ${strong.length === 1 ? "note matches" : "notes match"} “${q}”${weak.length ? `, ${weak.length} more weakly` : ""}`}
          </h2>
          {hits.length === 0 ? (
            <p className="empty">
              Try fewer words, another spelling, a tag or an ID such as AFN-016; or browse <a href="/#records">all decision records</a>.
            </p>
          ) : (
            <>
              <Results hits={strong} view={view} label={`Notes matching “${q}”`} />
              {weak.length ? (
                <details className="weak-matches">
                  <summary>
                    {weak.length} more {weak.length === 1 ? "note shares" : "notes share"} a word with the query only in passing
                  </summary>
                  <Results hits={weak} view={view} label={`Weaker matches for “${q}”`} start={strong.length + 1} />
                </details>
              ) : null}
            </>
          )}
        </section>
      ) : (
        <>
          <p className="section-intro">
            Searches every field of the {view.notes.length} published notes: titles, summaries, tags, phases, statuses and each section. Results are ranked; the
            passage that matched is shown.
          </p>
          <Browse notes={view.notes} titles={titles} />
        </>
      )}
      <CommitLine commit={view.commit} />
    </>
  );
}

/** Ranked results; `start` numbers a folded list on from the one above it. */
function Results({ hits, view, label, start }: { hits: readonly SearchHit[]; view: PublishedView; label: string; start?: number }) {
  return (
    <ol className="results" aria-label={label} start={start}>
      {hits.map((hit) => {
        const note = view.byId.get(hit.id);
        if (!note) return null;
        return (
          <li key={hit.id} className="result">
            <p className="card__meta">
              <span className="id">{note.id}</span> <StatusBadge status={note.status} />
            </p>
            <h3 className="card__title">
              <a href={noteUrl(note.id)}>
                <Highlight text={note.title} terms={hit.terms} />
              </a>
            </h3>
            {hit.field === "tags" ? null : SHOWN_ABOVE.has(hit.field) ? (
              // The match is in the title just shown: the summary says more than repeating it.
              <p className="result__passage">
                <Highlight text={note.summary} terms={hit.terms} />
              </p>
            ) : (
              <p className="result__passage">
                <span className="result__field">Matched in {FIELD_LABEL[hit.field] ?? hit.field}:</span> <Highlight text={hit.passage} terms={hit.terms} />
              </p>
            )}
            <MatchedTags tags={note.tags} terms={hit.terms} always={hit.field === "tags"} />
          </li>
        );
      })}
    </ol>
  );
}

/**
 * The note's tags that the search matched, as the tags they are (links to each tag's page), so a
 * result found by its tag says which tag. Shown whenever a tag matched; for a note whose best
 * match is in its tags, this line is the passage.
 */
function MatchedTags({ tags, terms, always }: { tags: readonly string[]; terms: readonly string[]; always: boolean }) {
  const matched = tags.filter((t) => highlightRanges(t, terms).length > 0);
  if (matched.length === 0) return always ? <p className="result__passage">{tags.join(" · ")}</p> : null;
  return (
    <p className="result__tags">
      <span className="result__field">{matched.length === 1 ? "Tag" : "Tags"}:</span>{" "}
      {matched.map((t) =>
        tagHasPage(t) ? (
          <a key={t} className="tag-chip" href={tagUrl(t)}>
            <Highlight text={t} terms={terms} />
          </a>
        ) : (
          <span key={t} className="tag-chip">
            <Highlight text={t} terms={terms} />
          </span>
        ),
      )}
    </p>
  );
}

/** The most used tags (at most this many) offered on the empty search page. */
const BROWSE_TAGS = 40;

/** Before a search: the ways in without one, the archive's most used tags and its phases in order. */
function Browse({ notes, titles }: { notes: readonly Note[]; titles: PhaseTitles }) {
  const counts = new Map<string, number>();
  for (const n of notes) for (const t of n.tags.filter(tagHasPage)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const tags = [...counts].sort((a, b) => b[1] - a[1] || compareNames(a[0], b[0])).slice(0, BROWSE_TAGS);
  const phases = [...new Set(notes.map((n) => n.phase))].sort(comparePhases);
  return (
    <section className="browse" aria-labelledby="browse-heading">
      <h2 id="browse-heading">Or browse</h2>
      <h3>Tags</h3>
      <ul className="tags" aria-label="Most used tags">
        {tags.map(([t, n]) => (
          <li key={t}>
            <a href={tagUrl(t)}>
              {t} <span className="count">{n}</span>
            </a>
          </li>
        ))}
      </ul>
      <h3>Phases</h3>
      <ul className="browse__phases">
        {phases.map((p) => (
          <li key={p}>
            <a href={phaseUrl(p)}>Phase {shownPhase(titles, p)}</a>
          </li>
        ))}
      </ul>
      <p>
        Or filter and sort <a href="/?view=table#records">all decision records</a> by status, tag and phase.
      </p>
    </section>
  );
}
