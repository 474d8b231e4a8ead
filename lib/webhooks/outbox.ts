import fs from "node:fs/promises";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { signBody } from "@/lib/web/webhook-signature";
import type { EventType } from "@/lib/validations/webhook-events";
import type { WebhookEvent } from "./events";

/**
 * The durable queue of outgoing webhook deliveries, one JSON file per delivery under
 * DATA_DIR/webhooks/deliveries/ (`<seq>-<delivery id>.json`), written to a temporary file, fsynced
 * and renamed, so a delivery queued before a write's answer survives a crash or a restart. Each
 * receiver has one lane that sends its deliveries in the order they were queued, one at a time: a
 * failure (no answer within the timeout, a refused connection, a status other than 2xx) is retried
 * after an exponentially growing wait and holds the later ones back, so a receiver sees events in
 * order. Nothing here runs on a request's path except `enqueue`, which only writes files.
 *
 * A delivery file is the delivery log too: status (pending, delivered, failed), attempts, the last
 * answer or error. Finished deliveries beyond the newest `keepFinished` are deleted.
 */

export type Receiver = {
  /** Stable across restarts: `env:<hash of the URL>` or `studio:<subscription id>`. */
  key: string;
  url: string;
  secret: string;
  /** The events it is sent; empty: all. */
  events: readonly EventType[];
};

export type DeliveryStatus = "pending" | "delivered" | "failed";

export type Delivery = {
  v: 1;
  id: string;
  seq: number;
  event: { id: string; type: EventType; text: string };
  receiver: { key: string; url: string };
  /** The exact bytes sent and signed. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  created: string;
  /** When the next attempt is due (pending only). */
  nextAt: string;
  lastAttemptAt: string | null;
  /** The last answer's HTTP status (null: none came). */
  lastStatus: number | null;
  lastError: string | null;
  deliveredAt: string | null;
};

export type Backoff = {
  /** The wait after the first failure; each further failure doubles it. */
  firstMs: number;
  maxMs: number;
  /** A delivery still failing this long after it was queued is given up (status failed). */
  giveUpAfterMs: number;
};

/** 5 s, 10 s, 20 s … up to 10 min between attempts; given up after 3 days. */
export const DEFAULT_BACKOFF: Backoff = { firstMs: 5_000, maxMs: 10 * 60_000, giveUpAfterMs: 3 * 24 * 3600_000 };

export type OutboxOptions = {
  /** DATA_DIR/webhooks. */
  dir: string;
  /** Who is subscribed now (read at each enqueue and each attempt: a removed receiver is sent nothing more). */
  receivers: () => Promise<Receiver[]>;
  timeoutMs: number;
  backoff?: Backoff;
  keepFinished?: number;
  log?: (message: string) => void;
};

/** The wait before the attempt after `attempts` failed ones. */
export const retryDelay = (attempts: number, b: Backoff = DEFAULT_BACKOFF) => Math.min(b.firstMs * 2 ** Math.max(0, attempts - 1), b.maxMs);

const FILE = /^(\d{12})-([0-9a-f]{16})\.json$/;
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export class Outbox {
  private readonly pending = new Map<string, Delivery[]>();
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly sleepers = new Set<() => void>();
  private readonly inFlight = new Set<AbortController>();
  private finished: string[] = [];
  private closed = false;
  private constructor(
    private readonly options: OutboxOptions & { backoff: Backoff; keepFinished: number; log: (m: string) => void },
    private nextSeq: number,
  ) {}

  get dir() {
    return this.options.dir;
  }

  /** Opens the queue in `dir`: deliveries still pending from an earlier run are due at once. */
  static async open(options: OutboxOptions): Promise<Outbox> {
    const folder = path.join(options.dir, "deliveries");
    await fs.mkdir(folder, { recursive: true });
    const log = options.log ?? ((m: string) => console.warn(`webhooks: ${m}`));
    const all = await readDeliveries(folder, log, { sweep: true });
    const outbox = new Outbox({ backoff: DEFAULT_BACKOFF, keepFinished: 500, ...options, log }, all.reduce((max, d) => Math.max(max, d.seq), 0) + 1);
    const now = new Date().toISOString();
    for (const d of all) {
      if (d.status !== "pending") {
        outbox.finished.push(fileOf(d));
        continue;
      }
      d.nextAt = now;
      const lane = outbox.pending.get(d.receiver.key) ?? [];
      lane.push(d);
      outbox.pending.set(d.receiver.key, lane);
    }
    for (const key of outbox.pending.keys()) outbox.kick(key);
    return outbox;
  }

  /**
   * Queues every event for every receiver subscribed to it, durably (the files are on disk when
   * this resolves), and wakes the receivers' lanes. Sends nothing itself.
   */
  async enqueue(events: readonly WebhookEvent[]): Promise<Delivery[]> {
    if (this.closed) throw new Error("the webhook outbox is closed");
    const receivers = await this.options.receivers();
    const created = new Date().toISOString();
    const queued: Delivery[] = [];
    for (const event of events) {
      const body = JSON.stringify(event);
      for (const r of receivers) {
        if (r.events.length && !r.events.includes(event.type)) continue;
        // The sequence is taken synchronously, so deliveries queue in the order enqueue was called.
        queued.push({
          v: 1,
          id: randomBytes(8).toString("hex"),
          seq: this.nextSeq++,
          event: { id: event.id, type: event.type, text: event.text },
          receiver: { key: r.key, url: r.url },
          body,
          status: "pending",
          attempts: 0,
          created,
          nextAt: created,
          lastAttemptAt: null,
          lastStatus: null,
          lastError: null,
          deliveredAt: null,
        });
      }
    }
    await Promise.all(queued.map((d) => this.save(d)));
    for (const d of queued) {
      const lane = this.pending.get(d.receiver.key) ?? [];
      lane.push(d);
      lane.sort((a, b) => a.seq - b.seq);
      this.pending.set(d.receiver.key, lane);
    }
    for (const key of new Set(queued.map((d) => d.receiver.key))) this.kick(key);
    return queued;
  }

  /** The delivery log, newest first. */
  async deliveries(limit = 200): Promise<Delivery[]> {
    const all = await readDeliveries(path.join(this.options.dir, "deliveries"), () => undefined, { sweep: false });
    return all.sort((a, b) => b.seq - a.seq).slice(0, limit);
  }

  /** Stops every lane and aborts attempts in flight (their deliveries stay pending on disk). */
  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.inFlight) c.abort(new Error("closing"));
    for (const wake of this.sleepers) wake();
    await Promise.allSettled([...this.lanes.values()]);
  }

  private kick(key: string) {
    if (this.closed || this.lanes.has(key)) return;
    const lane = this.runLane(key)
      .catch((e) => this.options.log(`the lane of ${key} stopped: ${(e as Error).message}`))
      .finally(() => {
        this.lanes.delete(key);
        if (this.pending.get(key)?.length) this.kick(key);
      });
    this.lanes.set(key, lane);
  }

  private async runLane(key: string) {
    for (;;) {
      const lane = this.pending.get(key);
      const head = lane?.[0];
      if (this.closed || !lane || !head) {
        if (lane && !lane.length) this.pending.delete(key);
        return;
      }
      const wait = Date.parse(head.nextAt) - Date.now();
      if (wait > 0) {
        await this.sleep(wait);
        continue;
      }
      try {
        const done = await this.attempt(head);
        if (this.closed) return;
        if (done) {
          lane.shift();
          await this.finish(head);
        }
      } catch (e) {
        // The receivers could not be read, or the disk refused the file: try again after the first wait, not at once.
        this.options.log(`a delivery to ${head.receiver.url} could not be attempted: ${(e as Error).message}`);
        await this.sleep(this.options.backoff.firstMs);
      }
    }
  }

  /** One attempt; true when the delivery is finished (delivered or given up). */
  private async attempt(d: Delivery): Promise<boolean> {
    const receiver = (await this.options.receivers()).find((r) => r.key === d.receiver.key);
    const at = new Date();
    if (!receiver) {
      Object.assign(d, { status: "failed", lastError: "the receiver was removed before this was delivered" });
      await this.save(d);
      return true;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.options.timeoutMs);
    this.inFlight.add(controller);
    let status: number | null = null;
    let error: string | null = null;
    try {
      const response = await fetch(receiver.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Field-Notes-Webhooks/1",
          "x-field-notes-event": d.event.type,
          "x-field-notes-event-id": d.event.id,
          "x-field-notes-delivery": d.id,
          "x-hub-signature-256": `sha256=${signBody(d.body, receiver.secret)}`,
        },
        body: d.body,
        redirect: "manual",
        signal: controller.signal,
      });
      status = response.status;
      const text = await response.text().catch(() => "");
      if (status < 200 || status > 299) error = `answered ${status}${text.trim() ? `: ${clip(text.trim().replace(/\s+/g, " "), 200)}` : ""}`;
    } catch (e) {
      const reason = controller.signal.reason as Error | undefined;
      if (this.closed) return false; // stopped mid-attempt: it stays pending as it is on disk
      if (controller.signal.aborted && reason?.message === "timeout") error = `no answer within ${this.options.timeoutMs / 1000} s`;
      else {
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        error = `could not be reached: ${cause?.code ?? cause?.message ?? (e as Error).message}`;
      }
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    d.attempts += 1;
    d.lastAttemptAt = at.toISOString();
    d.lastStatus = status;
    d.lastError = error;
    if (error === null) {
      d.status = "delivered";
      d.deliveredAt = new Date().toISOString();
    } else if (Date.now() - Date.parse(d.created) >= this.options.backoff.giveUpAfterMs) {
      d.status = "failed";
      this.options.log(`gave up delivering ${d.event.type} ${d.event.id} to ${d.receiver.url} after ${d.attempts} attempts: ${error}`);
    } else {
      d.nextAt = new Date(Date.now() + retryDelay(d.attempts, this.options.backoff)).toISOString();
    }
    await this.save(d);
    return d.status !== "pending";
  }

  private async finish(d: Delivery) {
    this.finished.push(fileOf(d));
    const extra = this.finished.length - this.options.keepFinished;
    if (extra <= 0) return;
    const old = this.finished.splice(0, extra);
    await Promise.all(old.map((f) => fs.rm(path.join(this.options.dir, "deliveries", f), { force: true })));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timer.unref();
      this.sleepers.add(wake);
    });
  }

  private async save(d: Delivery) {
    await writeDurably(path.join(this.options.dir, "deliveries"), fileOf(d), `${JSON.stringify(d)}\n`);
  }
}

const fileOf = (d: Delivery) => `${String(d.seq).padStart(12, "0")}-${d.id}.json`;

/** Written to a temporary file, fsynced, renamed over the name, and the folder fsynced: whole or not at all, after a crash too. */
async function writeDurably(folder: string, name: string, text: string) {
  const tmp = path.join(folder, `.${name}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await fs.open(tmp, "w", 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, path.join(folder, name));
  const dir = await fs.open(folder, "r");
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

async function readDeliveries(folder: string, log: (m: string) => void, { sweep }: { sweep: boolean }): Promise<Delivery[]> {
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: Delivery[] = [];
  for (const name of names) {
    if (name.endsWith(".tmp")) {
      if (sweep) await fs.rm(path.join(folder, name), { force: true }); // a write a crash cut short; its delivery file is the one before it
      continue;
    }
    if (!FILE.test(name)) continue;
    try {
      out.push(JSON.parse(await fs.readFile(path.join(folder, name), "utf8")) as Delivery);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") continue; // pruned meanwhile
      log(`${name} is not a delivery (${(e as Error).message}); left as it is`);
    }
  }
  return out.sort((a, b) => a.seq - b.seq);
}
