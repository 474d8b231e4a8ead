import Link from "next/link";
import { phaseUrl } from "@/lib/web/urls";

/** "Phase 6 architecture", linking to every note of that phase. */
export function PhaseLink({ phase }: { phase: string }) {
  return (
    <Link className="phase" href={phaseUrl(phase)}>
      Phase {phase}
    </Link>
  );
}
