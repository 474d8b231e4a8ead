/** A commit date as a reader says it ("12 March 2025", or "12 Mar 2025" where space is short), with the exact time in the markup. */
export function RevisionDate({ iso, withTime = false, short = false }: { iso: string; withTime?: boolean; short?: boolean }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: short ? "short" : "long", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return (
    <time dateTime={iso} title={iso}>
      {withTime ? `${day}, ${time} UTC` : day}
    </time>
  );
}
