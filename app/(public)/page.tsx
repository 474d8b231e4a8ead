import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import { AgentsBlock } from "@/components/agents-block";
import { CommitLine } from "@/components/commit-line";
import { RecordsExplorer } from "@/components/records-explorer";
import { StatusBadge } from "@/components/status-badge";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUS_LABEL, STATUS_MEANING } from "@/lib/notes/schema";
import { lastChanges } from "@/lib/content/last-change";
import { phaseTitlesAt } from "@/lib/content/phases";
import { homeListing, needsUpdated, onlyStatus } from "@/lib/public/listing";
import { feedUrl } from "@/lib/public/slices";
import { pageMetadata } from "@/lib/public/meta";
import { paginate } from "@/lib/public/page-numbers";
import { canonicalRecordsHref, parseRecordQuery, recordsHref, type RecordParams, type RecordQuery } from "@/lib/public/record-query";
import { noteUrl, statusUrl } from "@/lib/web/urls";

/**
 * The archive's index, computed from the published commit: the seed's page (masthead, the core
 * decisions, all decision records, the agents' block). The records can be filtered by status, tag
 * and phase together, shown as cards or a table, sorted and grouped by phase, all in the URL
 * (lib/public/record-query.ts); a filtered address is a page of its own, titled by its filters.
 */

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  await connection();
  const view = await getPublishedView();
  const listing = homeListing(view, await searchParams, await phaseTitlesAt(view.commit));
  if (listing.kind === "filtered") {
    const { query, title } = listing;
    const meaning = onlyStatus(query) ? ` ${STATUS_MEANING[query.status]}` : "";
    return pageMetadata({
      title,
      description: `${listing.notes.length} of ${view.notes.length} notes of ${view.site.title}: ${title}.${meaning}`,
      path: recordsHref({ ...query, view: "cards", sort: "order", dir: "asc", group: false }),
      ...(onlyStatus(query) ? { feed: { url: feedUrl.status(query.status), title } } : {}),
    });
  }
  return pageMetadata({ title: view.site.title, description: view.site.lede, path: "/", absoluteTitle: true });
}

/** When each note last changed, read only when the page shows or sorts by it (it walks history once per commit). */
async function updatedDates(view: PublishedView, params: RecordParams): Promise<Map<string, string>> {
  if (!needsUpdated(parseRecordQuery(params).query)) return new Map();
  const changes = await lastChanges(view);
  return new Map([...changes].map(([id, rev]) => [id, rev.date]));
}

export default async function HomePage({ searchParams }: Props) {
  await connection();
  const view = await getPublishedView();
  // One listing for the page and its Markdown twin (/index.md), so both show the same notes.
  const params = await searchParams;
  // The filter form sends its empty choices too; the page's address is the tidy one.
  const canonical = canonicalRecordsHref(params);
  if (canonical) redirect(canonical);
  const [updated, titles] = await Promise.all([updatedDates(view, params), phaseTitlesAt(view.commit)]);
  const listing = homeListing(view, params, titles, updated);
  if (listing.kind === "unknown-status") return <UnknownStatus view={view} value={listing.value} />;
  const { query, problems } = listing;
  const records = paginate(listing.notes, params.page);
  const explorer = (label: string) => (
    <RecordsExplorer query={query} problems={problems} all={view.notes} paged={records} updated={updated} titles={titles} label={label} />
  );
  if (listing.kind === "filtered") {
    // "#records" (where every filter link and the form lead) is the page's head here, so the reader
    // lands on the title and "8 of 21 notes", not past them.
    return (
      <div id="records" className="filtered-records">
        <FilteredHead view={view} query={query} title={listing.title} count={records.total} />
        <section className="all-records" aria-labelledby="records-heading">
          <h2 id="records-heading" className="visually-hidden">
            Decision records
          </h2>
          {explorer(listing.title.replace(/^Status: /, "Notes with status "))}
        </section>
        <CommitLine commit={view.commit} />
      </div>
    );
  }
  const { site } = view;
  return (
    <>
      <header className="masthead">
        <p className="kicker">{site.kicker}</p>
        <h1>{site.title}</h1>
        <p className="lede">{site.lede}</p>
        <p className="byline">
          By <span className="author">{site.author}</span>
        </p>
        <p className="scope">{site.operator_scope}</p>
        <p className="counts">
          <strong data-testid="note-count">{view.notes.length}</strong> notes · {site.counts_suffix}
        </p>
      </header>

      <section className="core" aria-labelledby="core-heading">
        <h2 id="core-heading">{site.core_heading}</h2>
        <p className="section-count">{view.core.length} core decisions</p>
        <p className="section-intro">{site.core_intro}</p>
        <ol className="core-list">
          {view.core.map((note) => (
            <li key={note.id} className="core-item">
              <p className="core-item__label">
                <span>{note.core?.label}</span> <span className="id">{note.id}</span>
              </p>
              <h3>
                <a href={noteUrl(note.id)}>{note.title}</a>
              </h3>
              <p>{note.summary}</p>
              <p className="core-item__foot">
                <StatusBadge status={note.status} />
                <a className="read-more" href={noteUrl(note.id)} aria-label={`Read decision ${note.id}: ${note.title}`}>
                  Read decision →
                </a>
              </p>
            </li>
          ))}
        </ol>
      </section>

      <section className="all-records" id="records" aria-labelledby="records-heading">
        <h2 id="records-heading">All decision records</h2>
        <p className="section-count">{view.notes.length} records</p>
        {explorer("All decision records")}
      </section>

      <AgentsBlock site={site} />
      <CommitLine commit={view.commit} />
    </>
  );
}

/** The head of a filtered list: a single status keeps its meaning as the lede, as the status pages always had. */
function FilteredHead({ view, query, title, count }: { view: PublishedView; query: RecordQuery; title: string; count: number }) {
  const status = onlyStatus(query) ? query.status : null;
  return (
    <header className="page-head">
      {status ? (
        <h1>
          Status: <StatusBadge status={status} link={false} />
        </h1>
      ) : (
        <h1>{title}</h1>
      )}
      <p className="kicker">
        <a href="/#records">All decision records</a> of {view.site.title}
        {status ? (
          <>
            {" "}
            ·{" "}
            <a href={feedUrl.status(status)} type="application/atom+xml">
              Atom feed of this status
            </a>
          </>
        ) : null}
      </p>
      {status ? <p className="lede">{STATUS_MEANING[status]}</p> : null}
      <p className="counts">
        {count} of {view.notes.length} notes
      </p>
    </header>
  );
}

function UnknownStatus({ view, value }: { view: PublishedView; value: string }) {
  return (
    <>
      <header className="page-head">
        <h1>No such status</h1>
        <p className="lede">
          “{value}” is not a status of a published note. The statuses are:{" "}
          {PUBLISHED_STATUSES.map((s, i) => (
            <span key={s}>
              {i > 0 ? ", " : ""}
              <a href={statusUrl(s)}>{STATUS_LABEL[s]}</a>
            </span>
          ))}
          .
        </p>
        <p>
          <a href="/#records">All decision records</a>
        </p>
      </header>
      <CommitLine commit={view.commit} />
    </>
  );
}
