import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as list from "@/app/api/studio/notes/route";
import * as transitions from "@/app/api/studio/notes/[id]/transitions/route";
import * as publish from "@/app/api/studio/notes/[id]/publish/route";
import { resetConfig } from "@/lib/env";
import type { Note } from "@/lib/notes/schema";
import { parseNote } from "@/lib/notes/markdown";
import { noteFile } from "@/lib/store/testing";
import { answer, BASE, noteFields, params, request, studioFixture, type Caller } from "@/lib/testing/studio";
import { affectedFeeds } from "./websub";

/**
 * WebSub on publish, against a real hub: an HTTP server on loopback that this test starts, which
 * records every ping and answers when the test lets it. A publish pings the hub once per feed it
 * changed (hub.mode=publish, hub.url=<feed>), answers the author without waiting for the hub, and a
 * hub that fails is logged, never the author's problem.
 */

type Ping = { mode: string | null; url: string | null; type: string | undefined; release: (status: number) => void };

let f: Awaited<ReturnType<typeof studioFixture>>;
let hub: http.Server;
let hubUrl: string;
let pings: Ping[] = [];
let arrived: (() => void)[] = [];

beforeAll(async () => {
  f = await studioFixture();
  hub = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
      pings.push({
        mode: form.get("hub.mode"),
        url: form.get("hub.url"),
        type: req.headers["content-type"],
        release: (status) => void (res.headersSent || res.writeHead(status).end()),
      });
      for (const wake of arrived.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
  hubUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/hub`;
}, 60_000);
afterEach(() => {
  for (const p of pings) p.release(204);
  pings = [];
  delete process.env.WEBSUB_HUB;
  resetConfig();
  vi.restoreAllMocks();
});
afterAll(async () => {
  hub.closeAllConnections();
  await new Promise((resolve) => hub.close(resolve));
  f.cleanup();
});

/** Resolves once the hub has received `n` pings in all (no clock: each arrival wakes it). */
async function pingsArrived(n: number): Promise<Ping[]> {
  while (pings.length < n) await new Promise<void>((wake) => arrived.push(wake));
  return pings;
}

const api = {
  create: (c: Caller) => list.POST(request(c, "POST", "/api/studio/notes", {}), params({})).then(answer),
  save: (c: Caller, id: string, body: unknown) =>
    import("@/app/api/studio/notes/[id]/route").then((one) => one.PUT(request(c, "PUT", `/api/studio/notes/${id}`, body), params({ id })).then(answer)),
  transition: (c: Caller, id: string, body: unknown) =>
    transitions.POST(request(c, "POST", `/api/studio/notes/${id}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `/api/studio/notes/${id}/publish`, body), params({ id })).then(answer),
};

/** A new note taken to hypothesis and ready to publish, tagged "sparse attention" and "hub test", in phase 6 architecture. */
async function readyToPublish(title: string): Promise<{ id: string; revision: string }> {
  const created = await api.create(f.author);
  const saved = await api.save(f.author, created.body.id, {
    revision: created.body.revision,
    note: noteFields(title, { related: ["AFN-016"], tags: ["sparse attention", "hub test"] }),
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  const proposed = await api.transition(f.author, created.body.id, { to: "hypothesis", revision: saved.body.revision });
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
  return { id: created.body.id, revision: proposed.body.revision };
}

const note = (extra: Parameters<typeof noteFile>[2]): Note => {
  const parsed = parseNote(noteFile("AFN-900", "S.", extra));
  if (!parsed.ok) throw new Error("fixture note does not parse");
  return parsed.note;
};

describe("affectedFeeds", () => {
  it("names the archive's feed and the status, tag and phase feeds of the note before and after, once each", () => {
    const before = note({ status: "hypothesis", tags: ["storage", "old tag"], phase: "5" });
    const after = note({ status: "verified-checkpoint", tags: ["storage", "New Tag"], phase: "5" });
    expect(affectedFeeds(before, after)).toEqual([
      "/feed.xml",
      "/feed.xml?status=hypothesis",
      "/feed.xml?status=verified-checkpoint",
      "/tags/storage/feed.xml",
      "/tags/old-tag/feed.xml",
      "/tags/new-tag/feed.xml",
      "/phases/5/feed.xml",
    ]);
  });

  it("for a first publish, the new note's feeds; a tag without a page of its own has no feed", () => {
    expect(affectedFeeds(null, note({ status: "hypothesis", tags: ["..", "x"], phase: "6 architecture" }))).toEqual([
      "/feed.xml",
      "/feed.xml?status=hypothesis",
      "/tags/x/feed.xml",
      "/phases/6-architecture/feed.xml",
    ]);
  });
});

describe("a publish with WEBSUB_HUB set", () => {
  it("answers the author while the hub has not answered yet, and pings it once per changed feed", async () => {
    process.env.WEBSUB_HUB = hubUrl;
    resetConfig();
    const { id, revision } = await readyToPublish("Announced to the hub");
    const published = await api.publish(f.author, id, { revision });
    // The publish has answered; the hub holds every ping unanswered until released below.
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const expected = [
      "/feed.xml",
      "/feed.xml?status=hypothesis",
      "/tags/sparse-attention/feed.xml",
      "/tags/hub-test/feed.xml",
      "/phases/6-architecture/feed.xml",
    ];
    const got = await pingsArrived(expected.length);
    expect(got.map((p) => p.url).sort()).toEqual(expected.map((p) => `${BASE}${p}`).sort());
    expect(got.every((p) => p.mode === "publish" && p.type === "application/x-www-form-urlencoded")).toBe(true);
  });

  it("logs a hub that refuses, and the publish still stands", async () => {
    process.env.WEBSUB_HUB = hubUrl;
    resetConfig();
    const warned: string[] = [];
    let allWarned = () => {};
    const logged = new Promise<void>((resolve) => (allWarned = resolve));
    vi.spyOn(console, "warn").mockImplementation((message: string) => {
      if (warned.push(message) === 5) allWarned();
    });
    const { id, revision } = await readyToPublish("Hub refuses");
    const published = await api.publish(f.author, id, { revision });
    expect(published.status).toBe(200);
    for (const ping of await pingsArrived(5)) ping.release(500);
    await logged;
    expect(warned).toHaveLength(5);
    for (const message of warned) expect(message).toMatch(new RegExp(`^websub: the hub ${hubUrl} answered 500 to the publish of ${BASE}/`));
    expect((await api.publish(f.author, id, { revision })).body.error.message).toMatch(/has no draft/);
  });

  it("sends nothing without WEBSUB_HUB", async () => {
    const { id, revision } = await readyToPublish("No hub");
    expect((await api.publish(f.author, id, { revision })).status).toBe(200);
    // A later, hub-configured publish's pings are the first the hub sees: none came from this one.
    process.env.WEBSUB_HUB = hubUrl;
    resetConfig();
    const next = await readyToPublish("Hub again");
    expect((await api.publish(f.author, next.id, { revision: next.revision })).status).toBe(200);
    const got = await pingsArrived(5);
    expect(got).toHaveLength(5);
    expect(got.every((p) => p.url?.startsWith(BASE))).toBe(true);
  });
});
