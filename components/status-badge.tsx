import { STATUS_LABEL, type Status } from "@/lib/notes/schema";
import { StatusBadgeView } from "./badge-views";

/** The status as a word, a shape and a colour; a link to every note with the same status. */
export function StatusBadge({ status, link = true }: { status: Status; link?: boolean }) {
  return <StatusBadgeView status={status} label={STATUS_LABEL[status]} link={link} />;
}
