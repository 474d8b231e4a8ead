import { BOUNDARY_LABEL, type Boundary } from "@/lib/notes/schema";
import { BoundaryBadgeView } from "./badge-views";

/** A hard limit on what the note claims, marked so it is not read past. */
export function BoundaryBadge({ boundary }: { boundary: Boundary }) {
  return <BoundaryBadgeView boundary={boundary} label={BOUNDARY_LABEL[boundary]} />;
}
