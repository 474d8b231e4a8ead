import { buttonClass } from "./ui/button";

/** A plain GET form: search works with JavaScript off and every result page has a shareable URL. */
export function SearchForm({ q = "", id = "q", compact = false }: { q?: string; id?: string; compact?: boolean }) {
  return (
    <form className={compact ? "search search--compact" : "search"} action="/search" method="get" role="search">
      <label htmlFor={id} className={compact ? "visually-hidden" : undefined}>
        Search the notes
      </label>
      <input id={id} name="q" type="search" defaultValue={q} placeholder={compact ? "Search notes" : "e.g. sparse attention or AFN-016"} maxLength={500} />
      <button type="submit" className={compact ? buttonClass("secondary", "small") : buttonClass("primary")}>
        Search
      </button>
    </form>
  );
}
