/**
 * One postings list of the search index (./term-index.ts): which notes hold a term in a field, and
 * how often, as one flat array `[doc, count, doc, count, …]` ascending by doc.
 *
 * Why not a `Map<doc, count>`: at 10,000 notes the index holds about 1.9 million postings in
 * 62,000 lists; a `Map` entry costs about 32 bytes and a small map about 170 (104 MB of heap), a
 * plain array of small integers 70 MB, and 50 MB since a long list is an Int32Array (4 bytes an
 * element; a Uint32Array was 10% slower to score). The scorer reads a list in order without hashing.
 *
 * A note's doc is handed out counting up when it is added, so a list only ever grows at its end
 * (the fast path of `set`). `postings.test.ts` holds a list equal to a `Map` through random sets,
 * deletes and trims.
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
   * From `toPairs()` of a saved index: doc, count, … with every doc known (`known`) and every count a
   * positive integer; sorted by doc if it is not (a damaged file). Null when it is not such a list.
   */
  static fromPairs(pairs: unknown[], known: (doc: number) => boolean): Postings | null {
    if (pairs.length % 2) return null;
    for (let i = 0; i < pairs.length; i++) {
      const n = pairs[i];
      if (!Number.isInteger(n) || (n as number) < i % 2 || (i % 2 === 0 && !known(n as number))) return null;
    }
    const list = new Postings(pairs as number[]).sorted();
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
    // The note being added is nearly always the last one (an index adds one note's terms at once).
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

  /** The list as `[doc, count, …]` (a copy), for a saved index. */
  toPairs(): number[] {
    return Array.from(this.pairs.slice(0, this.length));
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
