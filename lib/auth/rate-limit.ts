/**
 * Failed sign-ins counted per key in a sliding window. In memory: one server process guards its own
 * door, which is what the embedded default runs; several instances would each allow their share.
 */

export type Limit = { max: number; windowMs: number };

export class FailureCounter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: Limit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until `key` may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.limit.max) return 0;
    const oldest = recent[recent.length - this.limit.max] ?? this.now();
    return Math.max(1, oldest + this.limit.windowMs - this.now());
  }

  fail(key: string): void {
    this.failures.set(key, [...this.recent(key), this.now()]);
    if (this.failures.size > 10_000) this.sweep();
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.now() - this.limit.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.failures.set(key, list);
    else this.failures.delete(key);
    return list;
  }

  private sweep(): void {
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
