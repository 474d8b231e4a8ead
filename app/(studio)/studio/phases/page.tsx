import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { comparePhases } from "@/lib/public/record-query";
import { listPhases } from "@/lib/studio/phases";
import PhasesPageClient from "./page-client";

export const metadata: Metadata = { title: "Phases · Studio" };

/** /studio/phases: each phase in a reader's order (as the public pages list them), its state, and its actions. */
export default async function PhasesPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fphases");
  const { phases } = await listPhases(actor);
  // By the name notes carry, so a rename does not move a phase.
  const ordered = [...phases].sort((a, b) => comparePhases(a.phase.name, b.phase.name));
  return <PhasesPageClient phases={ordered} canChange={actor.role === "author"} />;
}
