import type { Note } from "@/lib/notes/schema";
import { shownPhase, type PhaseTitles } from "@/lib/phases/schema";
import { PUBLISHED_STATUSES, STATUS_LABEL } from "@/lib/notes/schema";
import type { Paged } from "@/lib/public/page-numbers";
import {
  groupByPhase,
  isFiltered,
  recordFacets,
  recordsHref,
  sortHref,
  statusChoices,
  tagChoices,
  type RecordQuery,
  type SortKey,
} from "@/lib/public/record-query";
import { noteUrl, slug } from "@/lib/web/urls";
import { BoundaryBadge } from "./boundary-badge";
import { NoteList } from "./note-card";
import { Pager } from "./pager";
import { PhaseLink } from "./phase-link";
import { RevisionDate } from "./revision-date";
import { StatusBadge } from "./status-badge";
import { StatusIcon } from "./status-icon";
import { buttonClass } from "./ui/button";

/**
 * "All decision records" with the reader's controls: filters by status, tag and phase (combined,
 * in the URL), cards or a compact table, sorting by a column, grouping by phase. Everything is a
 * link or a GET form, so it works without JavaScript and every view has an address.
 */

export type ExplorerProps = {
  query: RecordQuery;
  problems: readonly string[];
  /** Every published note (for the counts and the choices in the filters). */
  all: readonly Note[];
  /** The page of records to show, filtered and sorted. */
  paged: Paged<Note>;
  /** id → ISO date of the note's last change (the table's "Updated"). */
  updated: ReadonlyMap<string, string>;
  /** The renamed phases' titles (lib/content/phases.ts `phaseTitlesAt`): a phase is shown by its title everywhere here. */
  titles: PhaseTitles;
  label: string;
};

export function RecordsExplorer({ query, problems, all, paged, updated, titles, label }: ExplorerProps) {
  return (
    <>
      <StatusLinks query={query} all={all} />
      <FilterForm query={query} all={all} titles={titles} />
      {problems.map((p) => (
        <p key={p} className="empty" role="status">
          {p}
        </p>
      ))}
      <ViewLinks query={query} />
      {paged.total === 0 ? <p className="empty">No published note matches these filters.</p> : null}
      {query.group ? (
        groupByPhase(paged.items).map((g) => (
          <section key={g.phase} className="phase-group" aria-labelledby={`group-${slug(g.phase)}`}>
            <h3 id={`group-${slug(g.phase)}`} className="phase-group__heading">
              Phase {shownPhase(titles, g.phase)} <span className="count">{g.notes.length}</span>
            </h3>
            <Records query={query} notes={g.notes} updated={updated} titles={titles} label={`${label}, phase ${shownPhase(titles, g.phase)}`} />
          </section>
        ))
      ) : (
        <Records query={query} notes={paged.items} updated={updated} titles={titles} label={label} />
      )}
      <Pager paged={paged} href={(n) => `${recordsHref(query, {}, n)}#records`} label={`Pages of ${label.toLowerCase()}`} />
    </>
  );
}

type RecordsProps = { query: RecordQuery; notes: readonly Note[]; updated: ReadonlyMap<string, string>; titles: PhaseTitles; label: string };

function Records(props: RecordsProps) {
  if (props.notes.length === 0) return null;
  return props.query.view === "table" ? <RecordsTable {...props} /> : <NoteList notes={props.notes} titles={props.titles} label={props.label} />;
}

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "id", label: "ID" },
  { key: "status", label: "Status" },
  { key: "title", label: "Title" },
  { key: "phase", label: "Phase" },
  { key: "updated", label: "Updated" },
];

/** The compact view: one row per note; each column heading sorts by it (again: the other way). */
function RecordsTable({ query, notes, updated, titles, label }: RecordsProps) {
  return (
    <div className="table-scroll">
      <table className="records-table">
        <caption className="visually-hidden">{label}. Column headings sort the table.</caption>
        <thead>
          <tr>
            {COLUMNS.map((c) => {
              const sorted = query.sort === c.key;
              const next = sorted && query.dir === "asc" ? "descending" : "ascending";
              return (
                <th key={c.key} scope="col" aria-sort={sorted ? (query.dir === "asc" ? "ascending" : "descending") : undefined} className={`col-${c.key}`}>
                  <a
                    href={`${sortHref(query, c.key)}#records`}
                    aria-label={`${c.label}: sort ${sorted ? next : c.key === "updated" ? "newest first" : "ascending"}`}
                  >
                    {c.label}
                    <span className="sort-mark" aria-hidden="true">
                      {sorted ? (query.dir === "asc" ? " ▲" : " ▼") : ""}
                    </span>
                  </a>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {notes.map((n) => {
            const date = updated.get(n.id);
            return (
              <tr key={n.id}>
                <td className="id col-id">{n.id}</td>
                <td className="col-status">
                  <StatusBadge status={n.status} />
                  {n.boundaries.map((b) => (
                    <BoundaryBadge key={b} boundary={b} />
                  ))}
                </td>
                <td className="col-title">
                  <a href={noteUrl(n.id)}>{n.title}</a>
                </td>
                <td className="col-phase">
                  <PhaseLink phase={n.phase} title={shownPhase(titles, n.phase)} />
                </td>
                <td className="col-updated">{date ? <RevisionDate iso={date} short /> : "—"}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** One link per status with its count among the notes the tag and phase leave; each keeps the other filters and the view. */
function StatusLinks({ query, all }: { query: RecordQuery; all: readonly Note[] }) {
  const { total, counts } = statusChoices(all, query);
  return (
    <nav className="filter-bar" aria-label="Filter by status">
      <span className="filter-bar__label">Status:</span>
      <ul>
        <li>
          <a href={`${recordsHref(query, { status: null })}#records`} aria-current={query.status === null ? "page" : undefined}>
            all <span className="count">{total}</span>
          </a>
        </li>
        {counts.map(({ status: s, count: n }) => (
          <li key={s}>
            <a href={`${recordsHref(query, { status: s })}#records`} aria-current={query.status === s ? "page" : undefined} className={`filter filter--${s}`}>
              <StatusIcon status={s} />
              {STATUS_LABEL[s]} <span className="count">{n}</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Status, tag, phase and sort together: a GET form, so the choice lands in the URL. */
function FilterForm({ query, all, titles }: { query: RecordQuery; all: readonly Note[]; titles: PhaseTitles }) {
  const facets = recordFacets(all);
  const { phases } = facets;
  const tags = tagChoices(facets, query.tag);
  const someTags = tags.tags.length < tags.total;
  return (
    <form className="records-filter" action="/#records" method="get" aria-label="Filter and sort the records">
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" name="status" defaultValue={query.status ?? ""}>
          <option value="">Any status</option>
          {PUBLISHED_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-tag">Tag</label>
        <select id="filter-tag" name="tag" defaultValue={query.tag ?? ""} aria-describedby={someTags ? "filter-tag-some" : undefined}>
          <option value="">Any tag</option>
          {tags.tags.map(([value, name]) => (
            <option key={value} value={value}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-phase">Phase</label>
        <select id="filter-phase" name="phase" defaultValue={query.phase ?? ""}>
          <option value="">Any phase</option>
          {phases.map((p) => (
            <option key={p} value={slug(p)}>
              Phase {shownPhase(titles, p)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-sort">Sort</label>
        <select id="filter-sort" name="sort" defaultValue={query.sort}>
          <option value="order">Editorial order</option>
          <option value="id">ID</option>
          <option value="status">Status</option>
          <option value="title">Title</option>
          <option value="phase">Phase</option>
          <option value="updated">Last updated</option>
        </select>
      </div>
      {query.view === "table" ? <input type="hidden" name="view" value="table" /> : null}
      {query.group ? <input type="hidden" name="group" value="phase" /> : null}
      <div className="records-filter__actions">
        <button type="submit" className={buttonClass("primary", "small")}>
          Apply
        </button>
        {isFiltered(query) ? (
          <a className={buttonClass("quiet", "small")} href={`${recordsHref(query, { status: null, tag: null, phase: null })}#records`}>
            Clear filters
          </a>
        ) : null}
      </div>
      {someTags ? (
        <p id="filter-tag-some" className="records-filter__note">
          Tag lists the {tags.mostUsed} most used of {tags.total.toLocaleString("en")} tags; search finds notes by any tag.
        </p>
      ) : null}
    </form>
  );
}

/** Cards or table, grouped by phase or not: links that keep everything else. */
function ViewLinks({ query }: { query: RecordQuery }) {
  return (
    <nav className="view-switch" aria-label="How to show the records">
      <ul>
        <li>
          <a href={`${recordsHref(query, { view: "cards" })}#records`} aria-current={query.view === "cards" ? "true" : undefined}>
            Cards
          </a>
        </li>
        <li>
          <a href={`${recordsHref(query, { view: "table" })}#records`} aria-current={query.view === "table" ? "true" : undefined}>
            Table
          </a>
        </li>
      </ul>
      <ul>
        <li>
          <a href={`${recordsHref(query, { group: !query.group })}#records`} aria-current={query.group ? "true" : undefined}>
            {query.group ? "Grouped by phase (ungroup)" : "Group by phase"}
          </a>
        </li>
      </ul>
    </nav>
  );
}
