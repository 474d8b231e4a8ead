/**
 * What a reader sees first on a search page. The engine ranks every note that shares a word with
 * the query; in an archive whose notes share stock wording (every Claim boundary says "state",
 * every note has an Evidence section), most of those matches are noise: "transactional state"
 * found 17 of 21 seed notes, 14 of them at a score 2,000 times below the first. The notes about
 * the query are shown; the rest are folded under a line that says how many there are, never
 * dropped (a reader or an agent can still open them).
 *
 * A match is weak when it scores below WEAK_SHARE of the best match. Scores span orders of
 * magnitude (a title or tag match of every word against one stock word in a long section), so a
 * share of the best is the cut that holds across queries; measured on the seed: the weakest
 * match a reader would want scored 2.3% of the best ("transactional" in AFN-003's summary), the
 * strongest stock-wording match 0.6% ("evidence" in an Evidence section).
 */

export const WEAK_SHARE = 0.01;

export type Ranked<T extends { score: number }> = { strong: T[]; weak: T[] };

/** `hits` in rank order, split into the strong matches and the folded weak ones (each in rank order). */
export function foldWeakMatches<T extends { score: number }>(hits: readonly T[]): Ranked<T> {
  const best = hits.reduce((m, h) => Math.max(m, h.score), 0);
  const cut = best * WEAK_SHARE;
  const strong: T[] = [];
  const weak: T[] = [];
  for (const h of hits) (h.score >= cut ? strong : weak).push(h);
  return { strong, weak };
}
