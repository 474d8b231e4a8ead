import Link from "next/link";
import { STATUS_LABEL, type Status } from "@/lib/notes/schema";
import { statusUrl } from "@/lib/render/urls";
import { StatusIcon } from "./status-icon";

/** The status as a word, a shape and a colour; a link to every note with the same status. */
export function StatusBadge({ status, link = true }: { status: Status; link?: boolean }) {
  const content = (
    <>
      <StatusIcon status={status} />
      <span>{STATUS_LABEL[status]}</span>
    </>
  );
  // .badge is the shared shape (components/ui/badge.tsx); .status--<status> its colour pair.
  const className = `badge status status--${status}`;
  if (!link) return <span className={className}>{content}</span>;
  return (
    <Link className={className} href={statusUrl(status)} title={`All notes with status: ${STATUS_LABEL[status]}`}>
      {content}
    </Link>
  );
}
