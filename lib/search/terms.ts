/**
 * How text becomes search terms. Note IDs (AFN-016) and hyphenated words (query-by-key) are kept
 * whole and also split, so "AFN-016", "016" and "query key" all find them; "2,051" is also "2051".
 */

const WORD = /[\p{L}\p{N}]+(?:[-.,'’_/][\p{L}\p{N}]+)*/gu;

const STOP_WORDS = new Set(["a", "an", "and", "are", "as", "at", "be", "by", "for", "in", "is", "it", "of", "on", "or", "the", "to", "with"]);

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const [word] of text.matchAll(WORD)) {
    out.push(word);
    const parts = word.split(/[-.,'’_/]/);
    if (parts.length > 1) out.push(...parts, parts.join(""));
  }
  return out;
}

/** Lower case, no stop words; a term may be dropped (returns null). */
export function normalizeTerm(term: string): string | null {
  const t = term.toLowerCase().replace(/’/g, "'");
  if (!t || STOP_WORDS.has(t)) return null;
  return t;
}
