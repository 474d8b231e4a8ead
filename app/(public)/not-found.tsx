import { SearchForm } from "@/components/search-form";

/** A real 404 for a note, tag or phase that is not published (or never existed). */
export default function NotFound() {
  return (
    <div className="not-found">
      <p className="kicker">404 · not found</p>
      <h1>There is no published note here</h1>
      <p className="lede">
        The note, tag or phase in this address does not exist on the archive, or it has not been published. Check the ID (they look like AFN-016), search, or
        browse every record.
      </p>
      <SearchForm id="not-found-q" />
      <p>
        <a href="/#records">All decision records</a>
      </p>
    </div>
  );
}
