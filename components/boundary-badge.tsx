import { BOUNDARY_LABEL, type Boundary } from "@/lib/notes/schema";
import { BoundaryIcon } from "./status-icon";

/** A hard limit on what the note claims, marked so it is not read past. */
export function BoundaryBadge({ boundary }: { boundary: Boundary }) {
  return (
    <span className="boundary">
      <BoundaryIcon boundary={boundary} />
      <span>{BOUNDARY_LABEL[boundary]}</span>
    </span>
  );
}
