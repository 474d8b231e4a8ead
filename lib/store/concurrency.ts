/**
 * Run `fn` over `items` with at most `limit` calls in flight: enough to overlap file I/O, few
 * enough that a 10,000-file commit never holds thousands of open files at once.
 */
export async function eachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
