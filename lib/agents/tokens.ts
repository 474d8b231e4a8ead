import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

/**
 * Token counts with a real tokenizer (o200k_base, the encoding of current GPT models), so the
 * budgets of the index and capsules are measured the way a model will pay for them.
 */

export const TOKENIZER = "o200k_base";

export function tokens(text: string): number {
  return countTokens(text);
}

/**
 * The longest word-boundary prefix of `text` that fits in `max` tokens, with "…" marking the cut.
 * Text that fits is returned unchanged.
 */
export function clipToTokens(text: string, max: number): string {
  if (tokens(text) <= max) return text;
  const words = text.split(" ");
  let lo = 0;
  let hi = words.length - 1;
  // Binary search on the number of words kept: fits(k) is monotone in k.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (tokens(cut(words, mid)) <= max) lo = mid;
    else hi = mid - 1;
  }
  return cut(words, lo);
}

function cut(words: string[], keep: number): string {
  return `${words
    .slice(0, keep)
    .join(" ")
    .replace(/[\s,;:—–-]+$/, "")}…`;
}

/**
 * The first sentence of a line of prose. A full stop ends a sentence only before a space and a
 * capital, digit or quote, and not after a common abbreviation, so "2,051", "v2.1" and "e.g." stay whole.
 */
export function firstSentence(line: string): string {
  const re = /[.!?]["”’)]?(?=\s+["“(]?[\p{Lu}\p{N}])/gu;
  for (const m of line.matchAll(re)) {
    const before = line.slice(0, m.index);
    if (/\b(?:e\.g|i\.e|etc|vs|cf|approx|no|fig)$/i.test(before)) continue;
    return line.slice(0, m.index + m[0].length).trim();
  }
  return line.trim();
}
