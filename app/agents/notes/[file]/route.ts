import { preflight, serveAgent } from "@/lib/agents/http";
import { noteJson, noteMarkdown, noteText } from "@/lib/agents/note-formats";
import { parseFileName } from "@/lib/agents/routes";
import { NOTE_FORMATS } from "@/lib/agents/urls";

/**
 * A published note as Markdown, LLM text or JSON. proxy.ts rewrites /notes/AFN-016.md|.txt|.json,
 * and /notes/AFN-016 asked for with Accept: text/markdown, to this route.
 */

export const dynamic = "force-dynamic";

const MEDIA = { md: "markdown", txt: "text", json: "json" } as const;

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const file = parseFileName((await params).file, NOTE_FORMATS);
  const format = file.ok ? file.format : "txt";
  // The Markdown also answers /notes/{id} by negotiation, so caches must key it on Accept.
  const headers: Record<string, string> = format === "md" ? { Vary: "Accept" } : {};
  return serveAgent(request, { variant: `note.${format}`, media: MEDIA[format], headers }, ({ view, urls }) => {
    if (!file.ok) return { status: 404, error: file.error };
    const note = view.byId.get(file.id);
    if (!note) return { status: 404, error: `no published note ${file.id}; the compact index lists them at ${urls.indexMd}` };
    if (format === "json") return { body: noteJson(note, view, urls) };
    return { body: format === "md" ? noteMarkdown(note, view, urls) : noteText(note, view, urls) };
  });
}

export const OPTIONS = preflight;
