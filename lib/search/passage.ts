/**
 * The passage a search result shows: a short excerpt of one field, placed where the most query
 * terms meet, cut at word boundaries, with an ellipsis where text was left out.
 */

const WIDTH = 220;
const LEAD = 70;

export function passageAround(text: string, terms: readonly string[], width = WIDTH): string {
  if (text.length <= width) return text;
  const at = bestOffset(text, terms);
  let start = Math.max(0, at - LEAD);
  if (start > 0) {
    const space = text.indexOf(" ", start);
    start = space >= 0 && space < at ? space + 1 : start;
  }
  let end = Math.min(text.length, start + width);
  if (end < text.length) {
    const space = text.lastIndexOf(" ", end);
    end = space > at ? space : end;
  }
  const body = text.slice(start, end).trim();
  return `${start > 0 ? "… " : ""}${body}${end < text.length ? " …" : ""}`;
}

/**
 * Where a window of text holds the most distinct terms (the earliest such place); 0 without a match.
 * One pass over the hits in order, the window's end moving forward with its start: a term met
 * hundreds of times in a long section made the window-per-hit scan quadratic (a third of a search
 * answer's time on realistic text).
 */
export function bestOffset(text: string, terms: readonly string[]): number {
  const hits = termOffsets(text, terms);
  const inWindow = new Map<string, number>();
  const add = (term: string, by: number) => {
    const n = (inWindow.get(term) ?? 0) + by;
    if (n > 0) inWindow.set(term, n);
    else inWindow.delete(term);
  };
  let best = { at: 0, count: 0 };
  let first = 0;
  let end = 0;
  for (const { at } of hits) {
    // The window is [at, at + WIDTH - LEAD): every hit from the first at this offset on.
    for (; hits[first]!.at < at; first++) add(hits[first]!.term, -1);
    for (; end < hits.length && hits[end]!.at < at + WIDTH - LEAD; end++) add(hits[end]!.term, 1);
    if (inWindow.size > best.count) best = { at, count: inWindow.size };
  }
  return best.at;
}

export function termOffsets(text: string, terms: readonly string[]): { at: number; term: string; length: number }[] {
  const out: { at: number; term: string; length: number }[] = [];
  for (const term of new Set(terms.filter(Boolean))) {
    const re = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(term)}`, "giu");
    for (const m of text.matchAll(re)) out.push({ at: m.index, term, length: m[0].length });
  }
  return out.sort((a, b) => a.at - b.at);
}

function escapeRegExp(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
