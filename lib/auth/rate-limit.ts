/**
 * Failed sign-ins slowed down by exponential backoff per key (an account, an address). The first
 * `free` failures cost nothing; after that each attempt must wait `baseMs`, doubling with every
 * further failure, up to `maxMs` after the last failure. A key is forgotten after `forgetMs` without
 * a failure. Nothing is ever locked for longer than `maxMs`, so whoever fails cannot shut anyone out
 * for longer than that; see lib/auth/sign-in.ts for how the two limits are sized against each other.
 *
 * In memory: one server process guards its own door, which is what the embedded default runs;
 * several instances would each allow their share.
 */

export type Backoff = { free: number; baseMs: number; maxMs: number; forgetMs: number };

type Entry = { failures: number; last: number };

export class FailureBackoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly rule: Backoff,
    private readonly now: () => number = Date.now,
    /** The most keys kept; past it the least recently failed are dropped (memory stays bounded). */
    private readonly maxKeys = 10_000,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const entry = this.current(key);
    if (!entry || entry.failures < this.rule.free) return 0;
    return Math.max(0, entry.last + this.delay(entry.failures) - this.now());
  }

  /** How many failures `key` has on record (0 once forgotten). */
  failures(key: string): number {
    return this.current(key)?.failures ?? 0;
  }

  fail(key: string): void {
    const failures = (this.current(key)?.failures ?? 0) + 1;
    // Delete first, so the map's order stays "least recently failed first" for the sweep.
    this.entries.delete(key);
    this.entries.set(key, { failures, last: this.now() });
    if (this.entries.size > this.maxKeys) this.sweep();
  }

  clear(key: string): void {
    this.entries.delete(key);
  }

  /** The wait after `failures` failures: baseMs once `free` are used up, doubling, at most maxMs. */
  private delay(failures: number): number {
    return Math.min(this.rule.maxMs, this.rule.baseMs * 2 ** (failures - this.rule.free));
  }

  private current(key: string): Entry | null {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.last > this.rule.forgetMs) {
      this.entries.delete(key);
      return null;
    }
    return entry ?? null;
  }

  private sweep(): void {
    for (const key of [...this.entries.keys()]) this.current(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size <= this.maxKeys) break;
      this.entries.delete(key);
    }
  }
}
