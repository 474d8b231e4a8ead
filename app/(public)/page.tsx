import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { NoteList } from "@/components/note-card";
import { StatusBadge } from "@/components/status-badge";
import { StatusIcon } from "@/components/status-icon";
import { getPublishedView, type PublishedView } from "@/lib/content/published";
import { PUBLISHED_STATUSES, STATUS_LABEL, STATUS_MEANING, type Status } from "@/lib/notes/schema";
import { homeListing, statusCounts, statusParam } from "@/lib/public/listing";
import { noteUrl, statusUrl } from "@/lib/render/urls";
import { pageMetadata } from "@/lib/public/meta";
import { AgentsBlock } from "@/components/agents-block";
import { CommitLine } from "@/components/commit-line";
import { Pager } from "@/components/pager";
import { paginate } from "@/lib/public/paging";

/** The archive's index, computed from the published commit: the seed's page, and its status filter. */

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export async function generateMetadata({ searchParams }: Props): Promise<Metadata> {
  await connection();
  const view = await getPublishedView();
  const { status } = statusParam((await searchParams).status);
  if (status) {
    const count = view.notes.filter((n) => n.status === status).length;
    return pageMetadata({ title: `Status: ${STATUS_LABEL[status]}`, description: `${count} ${view.site.title} with status ${STATUS_LABEL[status]}. ${STATUS_MEANING[status]}`, path: statusUrl(status) });
  }
  return pageMetadata({ title: view.site.title, description: view.site.lede, path: "/", absoluteTitle: true });
}

export default async function HomePage({ searchParams }: Props) {
  await connection();
  const view = await getPublishedView();
  // One listing for the page and its Markdown twin (/index.md), so both show the same notes.
  const params = await searchParams;
  const listing = homeListing(view, params.status);
  if (listing.kind !== "home") {
    const status = listing.kind === "status" ? listing.status : null;
    return <StatusFilter view={view} status={status} unknown={listing.kind === "unknown-status" ? listing.value : null} notes={listing.kind === "status" ? listing.notes : []} pageParam={params.page} />;
  }
  const { site } = view;
  // The first PAGE_SIZE records, then "next" links: the page stays small at any archive size.
  const records = paginate(listing.notes, params.page);
  return (
    <>
      <header className="masthead">
        <p className="kicker">{site.kicker}</p>
        <h1>{site.title}</h1>
        <p className="lede">{site.lede}</p>
        <p className="scope">{site.operator_scope}</p>
        <p className="counts">
          <strong data-testid="note-count">{view.notes.length}</strong> notes · {site.counts_suffix}
        </p>
      </header>

      <section className="core" aria-labelledby="core-heading">
        <h2 id="core-heading">{site.core_heading}</h2>
        <p className="section-count">{listing.core.length} core decisions</p>
        <p className="section-intro">{site.core_intro}</p>
        <ol className="core-list">
          {listing.core.map((note) => (
            <li key={note.id} className="core-item">
              <p className="core-item__label">
                <span>{note.core?.label}</span> <span className="id">{note.id}</span>
              </p>
              <h3>
                <Link href={noteUrl(note.id)}>{note.title}</Link>
              </h3>
              <p>{note.summary}</p>
              <p className="core-item__foot">
                <StatusBadge status={note.status} />
                <Link className="read-more" href={noteUrl(note.id)} aria-label={`Read decision ${note.id}: ${note.title}`}>
                  Read decision →
                </Link>
              </p>
            </li>
          ))}
        </ol>
      </section>

      <section className="all-records" id="records" aria-labelledby="records-heading">
        <h2 id="records-heading">All decision records</h2>
        <p className="section-count">{listing.notes.length} records</p>
        <StatusFilterBar view={view} current={null} />
        <NoteList notes={records.items} label="All decision records" />
        <Pager paged={records} href={(n) => `/?page=${n}#records`} label="Pages of all decision records" />
      </section>

      <AgentsBlock site={site} />
      <CommitLine commit={view.commit} />
    </>
  );
}

function StatusFilterBar({ view, current }: { view: PublishedView; current: Status | null }) {
  const counts = statusCounts(view.notes).map((c) => [c.status, c.count] as const);
  return (
    <nav className="filter-bar" aria-label="Filter by status">
      <span className="filter-bar__label">Filter by status:</span>
      <ul>
        <li>
          <Link href="/#records" aria-current={current === null ? "page" : undefined}>
            all <span className="count">{view.notes.length}</span>
          </Link>
        </li>
        {counts.map(([s, n]) => (
          <li key={s}>
            <Link href={statusUrl(s)} aria-current={current === s ? "page" : undefined} className={`filter filter--${s}`}>
              <StatusIcon status={s} />
              {STATUS_LABEL[s]} <span className="count">{n}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function StatusFilter({ view, status, unknown, notes, pageParam }: { view: PublishedView; status: Status | null; unknown: string | null; notes: PublishedView["notes"]; pageParam: string | string[] | undefined }) {
  const paged = paginate(notes, pageParam);
  return (
    <>
      <header className="page-head">
        <p className="kicker">
          <Link href="/">{view.site.title}</Link>
        </p>
        {status ? (
          <>
            <h1>
              Status: <StatusBadge status={status} link={false} />
            </h1>
            <p className="lede">{STATUS_MEANING[status]}</p>
            <p className="counts">
              {notes.length} of {view.notes.length} notes
            </p>
          </>
        ) : (
          <>
            <h1>No such status</h1>
            <p className="lede">
              “{unknown}” is not a status of a published note. The statuses are:{" "}
              {PUBLISHED_STATUSES.map((s, i) => (
                <span key={s}>
                  {i > 0 ? ", " : ""}
                  <Link href={statusUrl(s)}>{STATUS_LABEL[s]}</Link>
                </span>
              ))}
              .
            </p>
          </>
        )}
      </header>
      <StatusFilterBar view={view} current={status} />
      {status && notes.length === 0 ? <p className="empty">No published note has this status.</p> : null}
      <NoteList notes={paged.items} label={status ? `Notes with status ${STATUS_LABEL[status]}` : "Notes"} />
      {status ? <Pager paged={paged} href={(n) => `${statusUrl(status)}&page=${n}`} label={`Pages of notes with status ${STATUS_LABEL[status]}`} /> : null}
      <CommitLine commit={view.commit} />
    </>
  );
}
