"use client";

import { useEffect } from "react";
import type { ReviewView } from "@/lib/review/read-review";
import { useReview } from "@/lib/queries/use-review";
import styles from "./review.module.css";

// CSS modules rename a highlight's name as they rename a class (same file, same pattern), so the
// module's empty .quoteMark class carries the name ::highlight(quoteMark) ends up with.
const NAME = styles.quoteMark ?? "quoteMark";

/**
 * Marks the passages open threads quote in the rendered sections, so a reviewer sees what each
 * thread beside the text is about. It uses the CSS Custom Highlight API: the sanitized section
 * HTML is never touched, and a browser without the API just shows no marks. A quote is found in
 * the section's text as rendered; one that spans formatting the rendering removed is not marked.
 */
export function QuoteMarks({ noteId, initial }: { noteId: string; initial?: ReviewView }) {
  const { data: review } = useReview(noteId, initial);
  useEffect(() => {
    if (typeof CSS === "undefined" || !("highlights" in CSS) || typeof Highlight === "undefined") return;
    const ranges: Range[] = [];
    for (const t of review?.threads ?? []) {
      if (!t.quote || t.resolved || t.outdated) continue;
      const prose = document.querySelector(`[data-section="${t.section}"] .prose`);
      const range = prose ? findText(prose, t.quote) : null;
      if (range) ranges.push(range);
    }
    CSS.highlights.set(NAME, new Highlight(...ranges));
    return () => void CSS.highlights.delete(NAME);
  }, [review]);
  return null;
}

/** A range over the first occurrence of `text` in the element's text, across text nodes. */
function findText(root: Element, text: string): Range | null {
  const nodes: { node: Text; start: number }[] = [];
  let all = "";
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push({ node: n as Text, start: all.length });
    all += n.nodeValue ?? "";
  }
  const at = all.indexOf(text);
  if (at < 0) return null;
  const locate = (offset: number) => {
    const hit = nodes.findLast((x) => x.start <= offset) ?? nodes[0]!;
    return { node: hit.node, offset: offset - hit.start };
  };
  const from = locate(at);
  const to = locate(at + text.length);
  const range = document.createRange();
  range.setStart(from.node, from.offset);
  range.setEnd(to.node, Math.min(to.offset, to.node.length));
  return range;
}
