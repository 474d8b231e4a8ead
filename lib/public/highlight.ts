import { termOffsets } from "@/lib/search/passage";

/**
 * Where to mark a search's matches in a text: each matched term extended to the end of its word
 * (a prefix match marks the whole word), and words that follow each other with only spaces or a
 * hyphen between them joined into one mark, so "sparse attention" reads as the phrase it is, one
 * highlight, not two separate words.
 */
export type Range = { start: number; end: number };

export function highlightRanges(text: string, terms: readonly string[]): Range[] {
  const words: Range[] = [];
  let covered = 0;
  for (const hit of termOffsets(text, terms)) {
    if (hit.at < covered) continue;
    let end = hit.at + hit.length;
    while (end < text.length && /[\p{L}\p{N}]/u.test(text[end] ?? "")) end++;
    words.push({ start: hit.at, end });
    covered = end;
  }
  const out: Range[] = [];
  for (const w of words) {
    const last = out.at(-1);
    if (last && /^[\s-]*$/u.test(text.slice(last.end, w.start)) && w.start - last.end <= 3) last.end = w.end;
    else out.push({ ...w });
  }
  return out;
}
