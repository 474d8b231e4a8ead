import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { editorCatalog } from "@/lib/studio/editor-catalog";
import NewNotePageClient from "./page-client";

export const metadata: Metadata = { title: "New note" };

/**
 * "New note": an empty form; nothing is written and no id is taken until the first save, which
 * claims the next free id (POST /api/studio/notes with the note). Signed-in people only.
 */
export default async function NewNotePage() {
  const actor = await currentActor();
  if (!actor) redirect("/sign-in?callbackUrl=%2Fstudio%2Fnotes%2Fnew");
  return <NewNotePageClient catalog={await editorCatalog()} actor={{ id: actor.id, role: actor.role }} />;
}
