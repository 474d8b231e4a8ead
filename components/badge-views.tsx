import type { Boundary, Status } from "@/lib/notes/schema";
import { statusUrl } from "@/lib/web/urls";
import { BoundaryIcon, StatusIcon } from "./status-icon";

/**
 * The status and boundary badges' markup, with their words handed in. The words live in
 * lib/notes/schema.ts beside the zod schema; this file imports only its types, so a client
 * component (the record cards, components/note-cards.tsx) can draw a badge without shipping zod.
 */

export function StatusBadgeView({ status, label, link = true }: { status: Status; label: string; link?: boolean }) {
  const content = (
    <>
      <StatusIcon status={status} />
      <span>{label}</span>
    </>
  );
  // .badge is the shared shape (components/ui/badge.tsx); .status--<status> its colour pair.
  const className = `badge status status--${status}`;
  if (!link) return <span className={className}>{content}</span>;
  return (
    <a className={className} href={statusUrl(status)} title={`All notes with status: ${label}`}>
      {content}
    </a>
  );
}

export function BoundaryBadgeView({ boundary, label }: { boundary: Boundary; label: string }) {
  return (
    <span className="boundary">
      <BoundaryIcon boundary={boundary} />
      <span>{label}</span>
    </span>
  );
}
