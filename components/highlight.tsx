import type { ReactNode } from "react";
import { termOffsets } from "@/lib/search/passage";

/** Text with the words that matched a search marked, as React text (never as HTML). */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const hit of mergedWordHits(text, terms)) {
    if (hit.start < at) continue;
    if (hit.start > at) out.push(text.slice(at, hit.start));
    out.push(<mark key={hit.start}>{text.slice(hit.start, hit.end)}</mark>);
    at = hit.end;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}

/** Each matched term extended to the end of its word, so a prefix match marks the whole word. */
function mergedWordHits(text: string, terms: readonly string[]) {
  return termOffsets(text, terms).map((h) => {
    let end = h.at + h.length;
    while (end < text.length && /[\p{L}\p{N}]/u.test(text[end] ?? "")) end++;
    return { start: h.at, end };
  });
}
