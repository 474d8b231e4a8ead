/** A commit date as a reader says it ("12 March 2025"), with the exact time in the markup. */
export function RevisionDate({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", timeZone: "UTC" });
  return (
    <time dateTime={iso} title={iso}>
      {withTime ? `${day}, ${time} UTC` : day}
    </time>
  );
}
