import path from "node:path";
import { config } from "@/lib/env";
import { Outbox, type Backoff } from "./outbox";
import { currentReceivers } from "./receivers";

/**
 * The one outbox of this process (on globalThis, so every Next bundle layer shares it), over
 * DATA_DIR/webhooks. Opened at start (instrumentation.ts) so deliveries a restart interrupted go
 * out without waiting for the next write, or by the first write that queues an event.
 */

const KEY = Symbol.for("field-notes.webhooks-outbox");
type Memo = { dir: string; outbox: Promise<Outbox> };
const memo = globalThis as typeof globalThis & { [KEY]?: Memo };

export function webhookOutbox(): Promise<Outbox> {
  const dir = path.join(config().dataDir, "webhooks");
  const current = memo[KEY];
  if (current && current.dir === dir) return current.outbox;
  if (current) void current.outbox.then((o) => o.close()).catch(() => undefined);
  return openWebhookOutbox({ dir });
}

/** Opens (or reopens, after `closeWebhookOutbox`) the process's outbox; tests pass shorter waits. */
export function openWebhookOutbox(options: { dir?: string; backoff?: Backoff; timeoutMs?: number } = {}): Promise<Outbox> {
  const dir = options.dir ?? path.join(config().dataDir, "webhooks");
  const outbox = Outbox.open({
    dir,
    receivers: currentReceivers,
    timeoutMs: options.timeoutMs ?? config().webhooks.timeoutMs,
    ...(options.backoff ? { backoff: options.backoff } : {}),
  });
  memo[KEY] = { dir, outbox };
  outbox.catch(() => {
    if (memo[KEY]?.outbox === outbox) delete memo[KEY];
  });
  return outbox;
}

/** Stops the process's outbox (what a stopped server leaves: pending deliveries stay on disk). */
export async function closeWebhookOutbox(): Promise<void> {
  const current = memo[KEY];
  delete memo[KEY];
  if (current) await (await current.outbox).close();
}
