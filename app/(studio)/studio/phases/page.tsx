import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { listPhases } from "@/lib/studio/phases";
import PhasesPageClient from "./page-client";

export const metadata: Metadata = { title: "Phases · Studio" };

/** /studio/phases: each phase, its notes and decision delta, and the close and reopen actions. */
export default async function PhasesPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fphases");
  const { phases } = await listPhases(actor);
  return <PhasesPageClient phases={phases} canChange={actor.role === "author"} />;
}
