import { phaseUrl } from "@/lib/web/urls";

/**
 * "Phase 6 architecture", linking to every note of that phase. `phase` is the name notes carry (the
 * address); `title` the name it is shown by after a rename (`shownPhase`), when it differs.
 */
export function PhaseLink({ phase, title }: { phase: string; title?: string | undefined }) {
  return (
    <a className="phase" href={phaseUrl(phase)}>
      Phase {title ?? phase}
    </a>
  );
}
