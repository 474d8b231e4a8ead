import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { webhookReceiver } from "@/lib/testing/webhook-receiver";
import type { WebhookEvent } from "./events";
import { Outbox, type Receiver } from "./outbox";

/** The queue on its own: what a crash leaves, a receiver that goes away, giving up, and how much of the log it keeps. */

const SECRET = "an outbox test secret";
const BACKOFF = { firstMs: 100, maxMs: 400, giveUpAfterMs: 60_000 };
const dirs: string[] = [];
const open: Outbox[] = [];
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
  await Promise.all(stops.splice(0).map((s) => s()));
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tempDir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "fn-outbox-"));
  dirs.push(d);
  return d;
};
let n = 0;
const event = (type: WebhookEvent["type"] = "note.published"): WebhookEvent => {
  n += 1;
  return {
    id: `event-${n}`,
    type,
    at: new Date().toISOString(),
    site: "http://x",
    revision: "0".repeat(40),
    actor: { id: "ada", name: "ada" },
    url: null,
    note: null,
    text: `event ${n}`,
  };
};
async function outbox(dir: string, receivers: () => Receiver[], extra: Partial<Parameters<typeof Outbox.open>[0]> = {}) {
  const o = await Outbox.open({ dir, receivers: async () => receivers(), timeoutMs: 1_000, backoff: BACKOFF, log: () => undefined, ...extra });
  open.push(o);
  return o;
}
const receiving = async (answer?: Parameters<typeof webhookReceiver>[1]) => {
  const r = await webhookReceiver(SECRET, answer);
  stops.push(r.stop);
  return r;
};
const folder = (dir: string) => path.join(dir, "deliveries");

describe("the webhook outbox", () => {
  it("sweeps a temporary file a crash left and sends the delivery it was rewriting", async () => {
    const dir = tempDir();
    const r = await receiving();
    await r.stop();
    const to: Receiver = { key: "k", url: r.url, secret: SECRET, events: [] };
    const first = await outbox(dir, () => [to]);
    await first.enqueue([event()]);
    await first.close();
    // A crash in the middle of rewriting the delivery: its half-written copy is beside it.
    const [name] = fs.readdirSync(folder(dir));
    fs.writeFileSync(path.join(folder(dir), `.${name}.dead.tmp`), '{"v":1,"st');
    await r.start();
    const second = await outbox(dir, () => [to]);
    expect(fs.readdirSync(folder(dir)).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const [got] = await r.waitFor(1);
    expect(got!.signed).toBe(true);
    await expect.poll(async () => (await second.deliveries())[0]?.status).toBe("delivered");
  });

  it("sends only the events a receiver asked for, and marks failed what was queued for a receiver since removed", async () => {
    const dir = tempDir();
    const r = await receiving();
    let receivers: Receiver[] = [{ key: "only-published", url: r.url, secret: SECRET, events: ["note.published"] }];
    const o = await outbox(dir, () => receivers);
    const queued = await o.enqueue([event("review.comment"), event("note.published")]);
    expect(queued.map((d) => d.event.type)).toEqual(["note.published"]);
    await r.waitFor(1);
    await r.stop();
    await o.enqueue([event()]);
    receivers = [];
    await expect
      .poll(async () => (await o.deliveries())[0])
      .toMatchObject({ status: "failed", lastError: "the receiver was removed before this was delivered" });
  });

  it("gives a delivery up once it has failed for longer than the backoff allows, and moves on", async () => {
    const dir = tempDir();
    const r = await receiving(() => 503);
    const o = await outbox(dir, () => [{ key: "k", url: r.url, secret: SECRET, events: [] }], { backoff: { ...BACKOFF, giveUpAfterMs: 250 } });
    await o.enqueue([event(), event()]);
    await expect.poll(async () => (await o.deliveries()).map((d) => d.status), { timeout: 10_000 }).toEqual(["failed", "failed"]);
    const [last] = await o.deliveries();
    expect(last!.attempts).toBeGreaterThanOrEqual(1);
    expect(last!.lastError).toBe("answered 503: receiver says no");
  });

  it("waits before trying again when the receivers cannot be read (a damaged accounts file), rather than spinning", async () => {
    const dir = tempDir();
    const r = await receiving();
    const to: Receiver = { key: "k", url: r.url, secret: SECRET, events: [] };
    const broken = Date.now() + 500;
    let reads = 0;
    const o = await outbox(dir, () => {
      reads += 1;
      if (reads > 1 && Date.now() < broken) throw new Error("accounts.json is not valid JSON");
      return [to];
    });
    await o.enqueue([event()]);
    await r.waitFor(1);
    // 500 ms of failing reads at one try per 100 ms wait: a handful, not thousands.
    expect(reads).toBeLessThan(15);
    await expect.poll(async () => (await o.deliveries())[0]?.status).toBe("delivered");
  });

  it("keeps the newest finished deliveries only", async () => {
    const dir = tempDir();
    const r = await receiving();
    const o = await outbox(dir, () => [{ key: "k", url: r.url, secret: SECRET, events: [] }], { keepFinished: 3 });
    const events = [event(), event(), event(), event(), event()];
    await o.enqueue(events);
    await r.waitFor(5);
    await expect.poll(() => fs.readdirSync(folder(dir)).length).toBe(3);
    expect((await o.deliveries()).map((d) => d.event.id)).toEqual(
      events
        .slice(2)
        .map((e) => e.id)
        .reverse(),
    );
  });
});
