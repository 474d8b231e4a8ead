import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ApiError } from "@/lib/rules/api-errors";
import { currentActor } from "@/lib/auth/actor";
import { editorCatalog } from "@/lib/studio/editor-catalog";
import { readNote } from "@/lib/studio/read-note";
import { noteIdParam } from "@/lib/studio/refs";
import NotePageClient from "./page-client";

type Props = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  return { title: `Editing ${(await params).id}` };
}

/** A draft's address: the editor for signed-in people, a plain 404 for everyone else (it admits nothing exists). */
export default async function NotePage({ params }: Props) {
  const actor = await currentActor();
  if (!actor) notFound();
  let view;
  try {
    view = await readNote(actor, noteIdParam((await params).id));
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) notFound();
    throw e;
  }
  return <NotePageClient initial={view} catalog={await editorCatalog()} actor={{ id: actor.id, role: actor.role }} />;
}
