import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@/lib/web/webhook-signature";

/**
 * A webhook receiver for tests: a real HTTP server on loopback that keeps every request it gets
 * (headers, body, when, whether the signature checks with `secret`). `answer` decides each reply:
 * a status, or "hang" (never answers). `stop` and `start` take it down and bring it back on the
 * same port, as a receiver that goes away for a while.
 */

export type Received = {
  at: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown> & { id: string; type: string };
  signed: boolean;
};

export type Answer = number | "hang";

export async function webhookReceiver(secret: string, answer: (n: number, r: Received) => Answer = () => 200) {
  const received: Received[] = [];
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])));
      const r: Received = { at: Date.now(), headers: req.headers, body, json: JSON.parse(body), signed: verifyWebhook(body, headers, secret).ok };
      received.push(r);
      const reply = answer(received.length, r);
      if (reply === "hang") return; // never answers: the sender must give up on its own
      res.writeHead(reply, { "content-type": "text/plain" }).end(reply >= 400 ? "receiver says no" : "ok");
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    stop,
    start: () => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve)),
    /** Resolves once `count` requests matching `which` have arrived (rejects after `ms`). */
    async waitFor(count: number, which: (r: Received) => boolean = () => true, ms = 20_000): Promise<Received[]> {
      const until = Date.now() + ms;
      for (;;) {
        const got = received.filter(which);
        if (got.length >= count) return got;
        if (Date.now() > until)
          throw new Error(`the receiver got ${got.length} of ${count} requests within ${ms} ms: ${received.map((r) => r.json.type).join(", ")}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}
