import { connection } from "next/server";
import { getPublishedView } from "@/lib/content/published";
import { segment } from "@/lib/web/urls";

/** The published note a page's `[id]` names, with the view it came from; null for an unknown id. */
export async function loadPublishedNote(params: Promise<{ id: string }>) {
  await connection();
  const { id } = await params;
  const view = await getPublishedView();
  const note = view.byId.get(segment(id));
  return note ? { view, note } : null;
}
