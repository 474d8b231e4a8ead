import type { PhasesView } from "@/lib/content/phases";
import { phaseTitle } from "@/lib/phases/schema";
import type { AgentUrls } from "./urls";

/**
 * The phases for agents: each phase's status and closeout record (the operator closeout contract:
 * a verified phase closes with a decision delta or an explicit no-new-decision record), and the
 * published notes that name it.
 */
export function phasesJson(view: PhasesView, urls: AgentUrls) {
  return {
    commit: view.commit,
    contract:
      "A verified phase closes with a decision delta (a note of the phase that became verified while it was open) or an explicit no-new-decision record (who, when, why).",
    phases: view.phases.map(({ phase, notes, delta }) => ({
      // The value notes carry in their `phase` field; `title` is the name people see (after a rename).
      name: phase.name,
      title: phaseTitle(phase),
      slug: phase.slug,
      status: phase.status,
      description: phase.description,
      opened: phase.opened ?? null,
      closed: phase.closed ?? null,
      closeout: phase.closeout ?? null,
      reopenings: phase.reopenings,
      delta,
      notes: notes.map((n) => ({ id: n.id, title: n.title, status: n.status, boundaries: n.boundaries, url: urls.capsule(n.id, "json") })),
      url: `${urls.base}/phases/${phase.slug}`,
    })),
  };
}
