import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { listNotes } from "@/lib/studio/list-notes";
import { mainState } from "@/lib/studio/main-state";
import { getContentStore } from "@/lib/working-copy/content-store";
import StudioPageClient from "./page-client";

export const metadata: Metadata = { title: "Studio" };

/** /studio: signed-in people only; anyone else is sent to sign in and brought back. */
export default async function StudioPage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio");
  const [notes, main] = await Promise.all([listNotes(actor), getContentStore().then(mainState)]);
  return <StudioPageClient initial={notes} main={main} actor={{ id: actor.id, role: actor.role }} />;
}
