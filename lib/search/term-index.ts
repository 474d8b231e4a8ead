import { Postings } from "./postings";
import { normalizeTerm, tokenize } from "./terms";

/**
 * The search index: this project's own inverted index of the published notes, the data structure
 * ./score.ts ranks on (docs/decisions/search-own-index.md). For each term, and each field it occurs
 * in, the notes that hold it and how often (`Postings`, ./postings.ts); for each note, the length
 * of each field; the terms in sorted order, for a prefix or a typo.
 *
 * A note gets a short number (its "doc") when it is added, counting up from 0 and never reused,
 * so a postings list grows at its end and stays in ascending doc order. A note leaves by
 * `remove` with the document it was added with, so every count (and so every score) is what a
 * fresh build of the same notes gives. Terms are read as MiniSearch read them before
 * (./terms.ts: its tokenizer, lower case, no stop words); a field's length, for BM25's length
 * normalisation, is its number of distinct tokens, stop words too, as MiniSearch counted it.
 */

export type IndexedDocument = { id: string } & Record<string, string>;
/** A term's postings per field, by field number (the field's place in `fields`). */
export type FieldPostings = Map<number, Postings>;

export class TermIndex {
  readonly fields: readonly string[];
  private terms = new Map<string, FieldPostings>();
  // The note id of each doc (undefined once removed), and the doc of each note id.
  private ids: (string | undefined)[] = [];
  private docs = new Map<string, number>();
  // Distinct tokens per field per doc, and their sum over the notes held, per field.
  private lengths: number[][];
  private totals: number[];
  // The terms in sorted order, for prefixes: terms added since it was sorted wait in `added`; a
  // removed term stays until the next sort (a lookup skips it).
  private sorted: string[] = [];
  private added: string[] = [];
  /** Changes at every add and remove (what ./score.ts keeps per index is stamped with it). */
  version = 0;

  constructor(fields: readonly string[]) {
    this.fields = fields;
    this.lengths = fields.map(() => []);
    this.totals = fields.map(() => 0);
  }

  /** How many notes the index holds. */
  get documentCount(): number {
    return this.docs.size;
  }

  /** One past the highest doc handed out: the size of an array indexed by doc. */
  get docLimit(): number {
    return this.ids.length;
  }

  /** How many distinct terms the index holds. */
  get termCount(): number {
    return this.terms.size;
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  idOf(doc: number): string | undefined {
    return this.ids[doc];
  }

  add(document: IndexedDocument): void {
    if (this.docs.has(document.id)) throw new Error(`search index: ${document.id} is already indexed`);
    const doc = this.ids.length;
    this.ids.push(document.id);
    this.docs.set(document.id, doc);
    this.version++;
    this.fields.forEach((field, f) => this.addField(doc, f, document[field] ?? ""));
  }

  /** Removes a note, given the document it was added with (its terms are found by reading it again). */
  remove(document: IndexedDocument): void {
    const doc = this.docs.get(document.id);
    if (doc === undefined) throw new Error(`search index: ${document.id} is not indexed`);
    this.docs.delete(document.id);
    this.ids[doc] = undefined;
    this.version++;
    this.fields.forEach((field, f) => this.removeField(doc, f, document[field] ?? ""));
  }

  /**
   * Changes one field of a note held, given its text before and after (a renamed phase's notes):
   * every count is what removing the note and adding it again gives, without reading its other fields.
   */
  replaceField(id: string, field: string, before: string, after: string): void {
    const doc = this.docs.get(id);
    const f = this.fields.indexOf(field);
    if (doc === undefined || f < 0) throw new Error(`search index: ${id} is not indexed, or ${field} is not a field`);
    this.version++;
    this.removeField(doc, f, before);
    this.addField(doc, f, after);
  }

  private addField(doc: number, f: number, text: string): void {
    const tokens = tokenize(text);
    const length = new Set(tokens).size;
    this.lengths[f]![doc] = length;
    this.totals[f]! += length;
    for (const token of tokens) {
      const term = normalizeTerm(token);
      if (!term) continue;
      let perField = this.terms.get(term);
      if (!perField) {
        this.terms.set(term, (perField = new Map()));
        this.added.push(term);
      }
      const list = perField.get(f);
      if (list) list.set(doc, (list.get(doc) ?? 0) + 1);
      else perField.set(f, new Postings([doc, 1]));
    }
  }

  private removeField(doc: number, f: number, text: string): void {
    this.totals[f]! -= this.lengths[f]![doc] ?? 0;
    this.lengths[f]![doc] = 0;
    for (const token of new Set(tokenize(text))) {
      const term = normalizeTerm(token);
      const perField = term ? this.terms.get(term) : undefined;
      const list = perField?.get(f);
      if (!perField || !list?.delete(doc) || list.size) continue;
      perField.delete(f);
      if (perField.size) continue;
      this.terms.delete(term!);
    }
  }

  /** The postings of a term, per field. */
  postings(term: string): FieldPostings | undefined {
    return this.terms.get(term);
  }

  /** The terms that start with `prefix` (itself included), in sorted order. */
  *withPrefix(prefix: string): Generator<[string, FieldPostings]> {
    const sorted = this.sortedTerms();
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]! < prefix) low = mid + 1;
      else high = mid;
    }
    for (let i = low; i < sorted.length && sorted[i]!.startsWith(prefix); i++) {
      const perField = this.terms.get(sorted[i]!);
      if (perField) yield [sorted[i]!, perField];
    }
  }

  /**
   * The terms within `maxDistance` edits (Levenshtein: insert, delete, replace) of `term`, with their
   * distance. One walk of the sorted terms, as down a trie: the edit-distance rows of a prefix are
   * shared by the terms that start with it, and once every cell of a prefix's row exceeds
   * `maxDistance`, all the terms under that prefix are skipped at once.
   */
  withinDistance(term: string, maxDistance: number): Map<string, [FieldPostings, number]> {
    const found = new Map<string, [FieldPostings, number]>();
    const sorted = this.sortedTerms();
    const n = term.length;
    // rows[j]: the distances of `term`'s prefixes to the candidate's first j characters.
    const rows = [Int32Array.from({ length: n + 1 }, (_, i) => i)];
    let previous = "";
    let valid = 0; // rows[0..valid] hold `previous`'s first `valid` characters
    let i = 0;
    while (i < sorted.length) {
      const candidate = sorted[i]!;
      let depth = 0;
      const shared = Math.min(valid, candidate.length);
      while (depth < shared && previous.charCodeAt(depth) === candidate.charCodeAt(depth)) depth++;
      let hopeless = 0;
      for (let j = depth; j < candidate.length; j++) {
        const above = rows[j]!;
        const row = (rows[j + 1] ??= new Int32Array(n + 1));
        row[0] = j + 1;
        let least = row[0];
        const c = candidate.charCodeAt(j);
        for (let k = 1; k <= n; k++) {
          const value = Math.min(above[k]! + 1, row[k - 1]! + 1, above[k - 1]! + (term.charCodeAt(k - 1) === c ? 0 : 1));
          row[k] = value;
          if (value < least) least = value;
        }
        if (least > maxDistance) {
          hopeless = j + 1;
          break;
        }
      }
      previous = candidate;
      if (hopeless) {
        valid = hopeless;
        i = this.pastPrefix(sorted, candidate.slice(0, hopeless), i + 1);
        continue;
      }
      valid = candidate.length;
      const distance = rows[candidate.length]![n]!;
      const perField = distance <= maxDistance ? this.terms.get(candidate) : undefined;
      if (perField) found.set(candidate, [perField, distance]);
      i++;
    }
    return found;
  }

  /** The first place from `from` on in `sorted` whose term does not start with `prefix`. */
  private pastPrefix(sorted: string[], prefix: string, from: number): number {
    let low = from;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (sorted[mid]!.startsWith(prefix)) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The length of field `f` of a doc: its distinct tokens (0 for a removed doc). */
  fieldLength(f: number, doc: number): number {
    return this.lengths[f]![doc] ?? 0;
  }

  /** The average length of field `f` over the notes held. */
  averageLength(f: number): number {
    return this.docs.size ? this.totals[f]! / this.docs.size : 0;
  }

  /** After a build: long postings lists give back the room they kept for growing. */
  trim(): void {
    for (const perField of this.terms.values()) for (const list of perField.values()) list.trim();
    this.sortedTerms();
  }

  private sortedTerms(): string[] {
    if (!this.added.length) return this.sorted;
    // A few new terms (a commit's) go in their place; many (a build), or removed ones, mean a sort.
    if (this.added.length > 64 || this.sorted.length > this.terms.size + 1024) {
      this.sorted = [...this.terms.keys()].sort();
    } else {
      for (const term of this.added) {
        let low = 0;
        let high = this.sorted.length;
        while (low < high) {
          const mid = (low + high) >> 1;
          if (this.sorted[mid]! < term) low = mid + 1;
          else high = mid;
        }
        if (this.sorted[low] !== term) this.sorted.splice(low, 0, term);
      }
    }
    this.added = [];
    return this.sorted;
  }

  /** The index as plain data, written term by term (a save at 10,000 notes is 20 MB of text). */
  *serialize(): Generator<string> {
    yield `{"fields":${JSON.stringify(this.fields)},"ids":${JSON.stringify(this.ids.map((id) => id ?? null))},`;
    yield `"lengths":${JSON.stringify(this.lengths.map((perDoc) => Array.from({ length: this.ids.length }, (_, doc) => perDoc[doc] ?? 0)))},"terms":[`;
    let first = true;
    for (const [term, perField] of this.terms) {
      const lists = [...perField].map(([f, list]) => [f, list.toPairs()]);
      yield `${first ? "" : ","}${JSON.stringify([term, lists])}`;
      first = false;
    }
    yield "]}";
  }

  /** An index from `serialize`'s data; throws when it is not one, or not of these fields. */
  static fromData(data: unknown, fields: readonly string[]): TermIndex {
    const d = data as { fields?: unknown; ids?: unknown; lengths?: unknown; terms?: unknown };
    const fail = (what: string) => new Error(`search index: ${what}`);
    if (JSON.stringify(d?.fields) !== JSON.stringify(fields)) throw fail("other fields");
    if (!Array.isArray(d.ids) || !Array.isArray(d.lengths) || !Array.isArray(d.terms)) throw fail("not an index");
    const index = new TermIndex(fields);
    const ids = d.ids as unknown[];
    ids.forEach((id, doc) => {
      if (id === null) return void index.ids.push(undefined);
      if (typeof id !== "string" || index.docs.has(id)) throw fail(`doc ${doc} has no id, or one held twice`);
      index.ids.push(id);
      index.docs.set(id, doc);
    });
    fields.forEach((_, f) => {
      const perDoc = (d.lengths as unknown[])[f];
      if (!Array.isArray(perDoc) || perDoc.length !== ids.length || !perDoc.every((n) => Number.isInteger(n) && n >= 0)) throw fail(`lengths of field ${f}`);
      index.lengths[f] = perDoc as number[];
      index.totals[f] = (perDoc as number[]).reduce((sum, n, doc) => (index.ids[doc] === undefined ? sum : sum + n), 0);
    });
    for (const entry of d.terms as unknown[]) {
      const [term, lists] = entry as [unknown, unknown];
      if (typeof term !== "string" || !Array.isArray(lists)) throw fail("a term");
      const perField: FieldPostings = new Map();
      for (const [f, pairs] of lists as [unknown, unknown][]) {
        if (typeof f !== "number" || !(f in fields) || !Array.isArray(pairs)) throw fail(`the postings of ${term}`);
        const list = Postings.fromPairs(pairs, (doc) => index.ids[doc] !== undefined);
        if (!list) throw fail(`the postings of ${term}`);
        perField.set(f, list);
      }
      index.terms.set(term, perField);
    }
    index.added = [...index.terms.keys()];
    index.sortedTerms();
    return index;
  }
}
