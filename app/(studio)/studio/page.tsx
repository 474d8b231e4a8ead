import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { listNotes } from "@/lib/studio/list-notes";
import StudioPageClient from "./page-client";

export const metadata: Metadata = { title: "Studio" };

/** /studio: signed-in people only; anyone else is sent to sign in and brought back. */
export default async function StudioPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio");
  const notes = await listNotes(actor);
  return <StudioPageClient initial={notes} actor={{ id: actor.id, role: actor.role }} />;
}
