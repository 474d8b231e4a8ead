import { preflight, serveAgent } from "@/lib/agents/http";
import { noteJson, noteMarkdown, noteText } from "@/lib/agents/note-formats";
import { parseFileName } from "@/lib/agents/routes";
import { NOTE_FORMATS } from "@/lib/agents/urls";
import { publishedNoteAt } from "@/lib/content/pinned-note";
import { phaseTitlesAt } from "@/lib/content/phases";

/**
 * A published note as Markdown, LLM text or JSON. proxy.ts rewrites /notes/AFN-016.md|.txt|.json,
 * and /notes/AFN-016 asked for with Accept: text/markdown, to this route. `?rev=<commit>` answers
 * the note as published at that commit of main (lib/content/pinned-note.ts), 404 where it was not.
 */

export const dynamic = "force-dynamic";

const MEDIA = { md: "markdown", txt: "text", json: "json" } as const;

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const file = parseFileName((await params).file, NOTE_FORMATS);
  const format = file.ok ? file.format : "txt";
  // The Markdown also answers /notes/{id} by negotiation, so caches must key it on Accept.
  const headers: Record<string, string> = format === "md" ? { Vary: "Accept" } : {};
  const rev = new URL(request.url).searchParams.get("rev");
  const variant = rev === null ? `note.${format}` : `note.${format}@${rev.slice(0, 40)}`;
  return serveAgent(request, { variant, media: MEDIA[format], headers }, async ({ view, urls }) => {
    if (!file.ok) return { status: 404, error: file.error };
    let note = view.byId.get(file.id);
    let at = view;
    if (rev !== null) {
      const pinned = await publishedNoteAt(file.id, rev);
      if (!pinned.ok)
        return {
          status: 404,
          error: `${pinned.problem}: rev names a commit of main (7 to 40 hex digits) where the note is published; its history is ${urls.note(file.id)}/history`,
        };
      note = pinned.note;
      at = { ...view, commit: pinned.commit };
    }
    if (!note) return { status: 404, error: `no published note ${file.id}; the compact index lists them at ${urls.indexMd}` };
    // A pinned revision's phase is named by main's title for it, as the phase's page is.
    const titles = await phaseTitlesAt(view.commit);
    if (format === "json") return { body: noteJson(note, at, urls, titles) };
    return { body: format === "md" ? noteMarkdown(note, at, urls, titles) : noteText(note, at, urls, titles) };
  });
}

export const OPTIONS = preflight;
