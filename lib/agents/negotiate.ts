/**
 * Content negotiation for a note's page: a client that asks for Markdown gets the note's Markdown
 * at the same URL. Markdown wins only when the client names it and ranks it at least as high as
 * HTML, so a browser's `text/html,…,*\/*;q=0.8` always keeps the page.
 */

type Range = { type: string; q: number; at: number };

const MARKDOWN = new Set(["text/markdown", "text/x-markdown"]);

export function prefersMarkdown(accept: string | null): boolean {
  const ranges = parseAccept(accept ?? "");
  const md = best(ranges.filter((r) => MARKDOWN.has(r.type)));
  if (!md || md.q === 0) return false;
  // HTML's rank is its most specific range: text/html, else text/*, else */*.
  const html =
    best(ranges.filter((r) => r.type === "text/html")) ?? best(ranges.filter((r) => r.type === "text/*")) ?? best(ranges.filter((r) => r.type === "*/*"));
  if (!html) return true;
  return md.q > html.q || (md.q === html.q && md.at < html.at);
}

function parseAccept(header: string): Range[] {
  return header
    .split(",")
    .map((part, at) => {
      const [type = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
      const q = params.map((p) => /^q=([0-9.]+)$/.exec(p)).find(Boolean);
      const value = q ? Number(q[1]) : 1;
      return { type, q: Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0, at };
    })
    .filter((r) => r.type !== "");
}

function best(ranges: Range[]): Range | undefined {
  return ranges.sort((a, b) => b.q - a.q || a.at - b.at)[0];
}
