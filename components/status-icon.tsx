import type { ReactNode } from "react";
import type { Boundary, Status } from "@/lib/notes/schema";

/**
 * A shape per status, so the status reads without colour (and in a greyscale print): a hollow
 * circle is unverified, a filled mark is verified, a square a structural decision, a cross withdrawn.
 */

const PATHS: Record<Status, ReactNode> = {
  draft: <circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeDasharray="2 2" />,
  hypothesis: <circle cx="8" cy="8" r="5.5" fill="none" stroke="currentColor" strokeWidth="1.8" />,
  "verified-checkpoint": (
    <>
      <circle cx="8" cy="8" r="7" fill="currentColor" />
      <path d="M4.6 8.3l2.2 2.2 4.6-4.8" fill="none" stroke="var(--status-icon-ink)" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  "verified-structural": (
    <>
      <rect x="1.5" y="1.5" width="13" height="13" rx="2" fill="currentColor" />
      <path d="M4.6 8.3l2.2 2.2 4.6-4.8" fill="none" stroke="var(--status-icon-ink)" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
    </>
  ),
  superseded: <path d="M3 8h9M8.5 4l4 4-4 4" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />,
  retracted: <path d="M4 4l8 8M12 4l-8 8" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />,
};

export function StatusIcon({ status }: { status: Status }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      {PATHS[status]}
    </svg>
  );
}

const BOUNDARY_PATH: Record<Boundary, ReactNode> = {
  // A triangle: a hard limit, read before relying on the note.
  "structural-only": <path d="M8 1.8L14.6 13.6H1.4Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />,
  "pinned-not-supported": (
    <>
      <path d="M8 1.8L14.6 13.6H1.4Z" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
      <path d="M8 6v3.6" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
      <circle cx="8" cy="11.6" r="0.9" fill="currentColor" />
    </>
  ),
};

export function BoundaryIcon({ boundary }: { boundary: Boundary }) {
  return (
    <svg className="icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true" focusable="false">
      {BOUNDARY_PATH[boundary]}
    </svg>
  );
}
