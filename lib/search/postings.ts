import MiniSearch from "minisearch";

/**
 * A search index's postings (which notes hold a term in a field, and how often) in one flat array
 * per term and field, instead of MiniSearch's `Map<note, count>`.
 *
 * Why: at 10,000 notes the index holds 1.9 million postings in 62,000 such maps, 104 MB of heap in
 * the search worker, the largest single part of the server's memory; a `Map` entry costs about
 * 32 bytes and a small map about 170. As `[note, count, note, count, …]` in a plain array of small
 * integers the same index is 70 MB, 58 MB once long lists are trimmed after a build (`trimPostings`),
 * and 50 MB (36 MB of heap, 14 MB of typed arrays) since a long list is an Int32Array; the
 * scorer reads it in order without hashing (bench:read's 30 queries, four warm passes: 205–211 ms
 * against 196–214 ms with plain arrays only; a Uint32Array was 10% slower).
 *
 * MiniSearch gives a note's short id as `_nextId++` when it is added, so a list only ever grows at
 * its end and, like the map it replaces, runs in ascending note order (a map's insertion order):
 * scores are summed in the same order, to the last bit. `Postings` has the part of `Map` that
 * MiniSearch and lib/search/score.ts use; `compact` makes an index create these instead of maps
 * (MiniSearch's private `addTerm`, pinned with the scorer's INTERNALS_VERSION); `loadCompact` reads
 * a saved index straight into them. `postings.test.ts`
 * holds a compacted index equal to MiniSearch's own through random adds, removes, saves and queries.
 */
export class Postings {
  // note, count, note, count…, ascending by note. A short list is a plain array; a long one (past 64
  // postings, as it grows or when trimmed) an Int32Array with `length` elements in use and room past them.
  private pairs: number[] | Int32Array;
  private length: number;

  constructor(pairs: number[] = []) {
    this.pairs = pairs;
    this.length = pairs.length;
  }

  /**
   * From MiniSearch's JSON of one list, `{"note": count}`. Integer keys come in ascending order; a
   * damaged file's keys ("01") might not, and a list out of order would answer wrongly, so it is sorted.
   * A long list is kept in its compact form at once (a loaded index does not grow much).
   */
  static fromObject(object: Record<string, number>): Postings {
    const pairs: number[] = [];
    for (const key of Object.keys(object)) pairs.push(parseInt(key, 10), object[key]!);
    const list = new Postings(pairs).sorted();
    list.trim();
    return list;
  }

  private sorted(): this {
    const pairs = this.pairs as number[];
    for (let i = 2; i < pairs.length; i += 2) {
      if (pairs[i - 2]! < pairs[i]!) continue;
      const byNote = Array.from({ length: pairs.length >> 1 }, (_, k) => [pairs[k * 2]!, pairs[k * 2 + 1]!] as const).sort((a, b) => a[0] - b[0]);
      this.pairs = byNote.flat();
      break;
    }
    return this;
  }

  get size(): number {
    return this.length >> 1;
  }

  /** Where `note` is (an even index), or where it would go as `-(index) - 1`. */
  private find(note: number): number {
    const pairs = this.pairs;
    let low = 0;
    let high = (this.length >> 1) - 1;
    // The note being added is nearly always the last one (MiniSearch adds one note's terms at once).
    if (high >= 0 && pairs[high * 2] === note) return high * 2;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = pairs[mid * 2]!;
      if (at === note) return mid * 2;
      if (at < note) low = mid + 1;
      else high = mid - 1;
    }
    return -(low * 2) - 1;
  }

  get(note: number): number | undefined {
    const at = this.find(note);
    return at >= 0 ? this.pairs[at + 1] : undefined;
  }

  has(note: number): boolean {
    return this.find(note) >= 0;
  }

  set(note: number, count: number): this {
    const end = this.length;
    const at = end === 0 || this.pairs[end - 2]! < note ? -end - 1 : this.find(note);
    if (at >= 0) {
      if (count > MAX_I32) this.widen();
      this.pairs[at + 1] = count;
      return this;
    }
    const pairs = this.pairs;
    if (!(pairs instanceof Int32Array)) {
      if (at === -end - 1) pairs.push(note, count);
      else pairs.splice(-at - 1, 0, note, count);
      this.length += 2;
      // Long now: typed from here on, with room to grow, so a build never holds its long lists at
      // 8 bytes an element (the server's memory peaks during the first build).
      if (this.length === LONG + 2) this.toTyped(this.length >> 2);
      return this;
    }
    if (note > MAX_I32 || count > MAX_I32) {
      this.widen();
      return this.set(note, count);
    }
    let into = pairs;
    // Full: a quarter more room, so a list that grows again (the notes of a push) copies seldom.
    if (end + 2 > pairs.length) (into = new Int32Array(end + 2 + (end >> 2))).set(pairs.subarray(0, end));
    into.copyWithin(-at + 1, -at - 1, end);
    into[-at - 1] = note;
    into[-at] = count;
    this.pairs = into;
    this.length += 2;
    return this;
  }

  delete(note: number): boolean {
    const at = this.find(note);
    if (at < 0) return false;
    if (this.pairs instanceof Int32Array) this.pairs.copyWithin(at, at + 2, this.length);
    else this.pairs.splice(at, 2);
    this.length -= 2;
    return true;
  }

  /** In note order, as `Map.forEach` (count, note); the list must not change meanwhile. */
  forEach(fn: (count: number, note: number) => void): void {
    const pairs = this.pairs;
    const end = this.length;
    // One loop per form: each stays monomorphic in the scorer's hot path.
    if (pairs instanceof Int32Array) for (let i = 0; i < end; i += 2) fn(pairs[i + 1]!, pairs[i]!);
    else for (let i = 0; i < end; i += 2) fn(pairs[i + 1]!, pairs[i]!);
  }

  // The iterators walk a copy: MiniSearch's vacuum deletes from the list it iterates, as a map allows.
  *entries(): IterableIterator<[number, number]> {
    const pairs = this.pairs.slice(0, this.length);
    for (let i = 0; i < pairs.length; i += 2) yield [pairs[i]!, pairs[i + 1]!];
  }

  *keys(): IterableIterator<number> {
    const pairs = this.pairs.slice(0, this.length);
    for (let i = 0; i < pairs.length; i += 2) yield pairs[i]!;
  }

  [Symbol.iterator](): IterableIterator<[number, number]> {
    return this.entries();
  }

  /**
   * Drops the spare room a growing list keeps (after a build, when lists stop growing). A long
   * list becomes an Int32Array: 4 bytes an element instead of a plain array's 8. At 10,000 notes
   * 371 lists longer than 64 postings hold 94% of the 1.87 million.
   */
  trim(long = LONG): void {
    const pairs = this.pairs;
    if (pairs instanceof Int32Array) {
      if (pairs.length > this.length) this.pairs = pairs.slice(0, this.length);
      return;
    }
    if (pairs.length > long) this.toTyped(0);
    // Still plain (short, or a number past 31 bits): a copy without the room an array keeps for growing.
    if (this.pairs === pairs && pairs.length > 64) this.pairs = pairs.slice();
  }

  /** A plain list as an Int32Array with `room` spare elements; left as it is if a number needs more than 31 bits. */
  private toTyped(room: number): void {
    const pairs = this.pairs;
    if (pairs instanceof Int32Array || !pairs.every((n) => n <= MAX_I32)) return;
    const typed = new Int32Array(this.length + room);
    typed.set(pairs);
    this.pairs = typed;
  }

  /** Back to a plain array, for a note or count past 31 bits (never met: a count of one term in one note). */
  private widen(): void {
    if (this.pairs instanceof Int32Array) this.pairs = Array.from(this.pairs.subarray(0, this.length));
  }
}

// Lists of more elements than this are kept as Int32Arrays (once trimmed, or as they grow past it);
// below it a typed array's own header (about 130 bytes) would cost more than it saves.
const LONG = 128;
const MAX_I32 = 0x7fff_ffff;

type FieldTermData = Map<number, Postings>;
type Internals = {
  _index: Iterable<[string, FieldTermData]> & { fetch(term: string, create: () => FieldTermData): FieldTermData };
  addTerm: (fieldId: number, documentId: number, term: string) => void;
};

/** Makes a new, empty `search` keep its postings as `Postings`. Returns the same index. */
export function compact<T>(search: MiniSearch<T>): MiniSearch<T> {
  const index = search as unknown as Internals;
  // MiniSearch's own addTerm, but a new list is a Postings, not a Map.
  index.addTerm = function addTerm(this: Internals, fieldId, documentId, term) {
    const data = this._index.fetch(term, () => new Map());
    const list = data.get(fieldId);
    if (list == null) data.set(fieldId, new Postings([documentId, 1]));
    else list.set(documentId, (list.get(documentId) || 0) + 1);
  };
  return search;
}

export type SerializedIndex = Parameters<typeof MiniSearch.loadJS>[0];

/**
 * `MiniSearch.loadJS` for an index saved by `toJSON` (serialization version 2), straight into
 * `Postings`: loading through MiniSearch's maps first would hold both at once, 100 MB more at the
 * peak of a start at 10,000 notes.
 */
export function loadCompact<T>(js: SerializedIndex, options: ConstructorParameters<typeof MiniSearch<T>>[0]): MiniSearch<T> {
  if (js.serializationVersion !== 2) throw new Error(`search index: serialization version ${js.serializationVersion} is not read here`);
  const search = compact(MiniSearch.loadJS<T>({ ...js, index: [] }, options));
  const index = (search as unknown as { _index: Map<string, FieldTermData> })._index;
  for (const [term, data] of js.index as [string, Record<string, Record<string, number>>][]) {
    const fields: FieldTermData = new Map();
    for (const fieldId of Object.keys(data)) fields.set(parseInt(fieldId, 10), Postings.fromObject(data[fieldId]!));
    index.set(term, fields);
  }
  return search;
}

/**
 * After a build: every long list gives back the room it kept for growing. `long` is the length in
 * elements past which a list becomes an Int32Array (tests lower it, to take small lists that way too).
 */
export function trimPostings<T>(search: MiniSearch<T>, long = LONG): void {
  for (const [, data] of (search as unknown as Internals)._index) {
    for (const list of data.values()) list.trim(long);
  }
}
