/**
 * A least-recently-used map bounded by total weight (a snapshot weighs its note count, a tree its
 * entry count), so memory stays bounded however many revisions are read. The newest entry is kept
 * even when it alone outweighs the bound.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;
  // The oldest end of the map, kept between calls. A Map iterates in insertion order and a live
  // iterator skips what was deleted behind it (refreshed entries are re-inserted at the end), so
  // this one always stands at the least recently used entry. A new iterator each time would start at
  // the table's first slot and step over every deleted slot not yet compacted away: with a memo of
  // tens of thousands of entries that was most of the cost of a set.
  private oldest: Iterator<[K, { value: V; weight: number }]> | null = null;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (v: V) => number = () => 1,
  ) {}

  get(key: K): V | undefined {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    this.map.delete(key);
    this.map.set(key, hit);
    return hit.value;
  }

  set(key: K, value: V): void {
    const old = this.map.get(key);
    if (old) {
      this.total -= old.weight;
      this.map.delete(key);
    }
    const weight = Math.max(1, this.weigh(value));
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.total > this.maxWeight) {
      this.oldest ??= this.map.entries();
      const next = this.oldest.next();
      if (next.done || next.value[0] === key) {
        // Only the new entry is left: keep it, and start from the map's front next time.
        this.oldest = null;
        break;
      }
      this.map.delete(next.value[0]);
      this.total -= next.value[1].weight;
    }
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
    this.oldest = null;
  }

  get size(): number {
    return this.map.size;
  }
}
