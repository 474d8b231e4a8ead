import type { ReactNode } from "react";
import { highlightRanges } from "@/lib/public/highlight";

/** Text with what matched a search marked (a phrase as one mark), as React text (never as HTML). */
export function Highlight({ text, terms }: { text: string; terms: readonly string[] }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const r of highlightRanges(text, terms)) {
    if (r.start > at) out.push(text.slice(at, r.start));
    out.push(<mark key={r.start}>{text.slice(r.start, r.end)}</mark>);
    at = r.end;
  }
  out.push(text.slice(at));
  return <>{out}</>;
}
