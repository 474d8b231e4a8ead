import { buildCapsule, capsuleMarkdown } from "@/lib/agents/capsule";
import { preflight, serveAgent } from "@/lib/agents/http";
import { perView } from "@/lib/agents/per-view";
import { withLlmsPointer } from "@/lib/agents/page-twins";
import { parseFileName } from "@/lib/agents/routes";
import { CAPSULE_FORMATS } from "@/lib/agents/urls";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ file: string }> }) {
  const file = parseFileName((await params).file, CAPSULE_FORMATS);
  const format = file.ok ? file.format : "md";
  return serveAgent(request, { variant: `capsule.${format}`, media: format === "json" ? "json" : "markdown" }, ({ view, urls }) => {
    if (!file.ok) return { status: 404, error: file.error };
    const note = view.byId.get(file.id);
    if (!note) return { status: 404, error: `no published note ${file.id}; the compact index lists them at ${urls.indexMd}` };
    const capsule = perView(view, `capsule ${file.id} ${urls.base}`, () => buildCapsule(note, view, urls));
    return { body: format === "json" ? capsule : withLlmsPointer(capsuleMarkdown(capsule), urls) };
  });
}

export const OPTIONS = preflight;
