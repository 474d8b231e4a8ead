import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answer, BASE, noteFields, params, request, studioFixture, type Caller, type Json } from "@/lib/testing/studio";
import { webhookReceiver, type Received } from "@/lib/testing/webhook-receiver";
import { closeWebhookOutbox, openWebhookOutbox } from "@/lib/webhooks";
import { retryDelay, type Backoff } from "@/lib/webhooks/outbox";
import * as notes from "../notes/route";
import * as one from "../notes/[id]/route";
import * as transitions from "../notes/[id]/transitions/route";
import * as publish from "../notes/[id]/publish/route";
import * as verdicts from "../notes/[id]/verdicts/route";
import * as requests from "../notes/[id]/review-requests/route";
import * as threads from "../notes/[id]/threads/route";
import * as close from "../phases/[slug]/close/route";
import * as hooks from "./route";
import * as hook from "./[id]/route";

/**
 * Outgoing webhooks through the studio API, against a real content repository and real HTTP
 * receivers on loopback: every event once and signed, nothing lost across a receiver's outage and
 * a restart of the app, a failing receiver retried with growing waits (and the log says so), and a
 * receiver that never answers holding up no save or publish.
 */

const SECRET = "a webhook secret for the tests";
// Short waits, so the tests see several retries; the shape (doubling, capped) is the production one.
const BACKOFF: Backoff = { firstMs: 300, maxMs: 1_200, giveUpAfterMs: 10 * 60_000 };
// Longer than any write may take below: a write that waited for a hanging receiver would fail the bound.
const TIMEOUT_MS = 4_000;

let f: Awaited<ReturnType<typeof studioFixture>>;
let envReceiver: Awaited<ReturnType<typeof webhookReceiver>>;
const extraReceivers: Awaited<ReturnType<typeof webhookReceiver>>[] = [];

beforeAll(async () => {
  envReceiver = await webhookReceiver(SECRET);
  process.env.WEBHOOK_URLS = envReceiver.url;
  process.env.WEBHOOK_SECRET = SECRET;
  f = await studioFixture();
  await openWebhookOutbox({ backoff: BACKOFF, timeoutMs: TIMEOUT_MS });
});
afterAll(async () => {
  await closeWebhookOutbox();
  await Promise.all([envReceiver, ...extraReceivers].map((r) => r.stop()));
  delete process.env.WEBHOOK_URLS;
  delete process.env.WEBHOOK_SECRET;
  f.cleanup();
});

const base = (id: string) => `/api/studio/notes/${id}`;
const api = {
  create: (c: Caller, body: unknown) => notes.POST(request(c, "POST", "/api/studio/notes", body), params({})).then(answer),
  read: (c: Caller, id: string) => one.GET(request(c, "GET", base(id)), params({ id })).then(answer),
  save: (c: Caller, id: string, body: unknown) => one.PUT(request(c, "PUT", base(id), body), params({ id })).then(answer),
  transition: (c: Caller, id: string, body: unknown) => transitions.POST(request(c, "POST", `${base(id)}/transitions`, body), params({ id })).then(answer),
  publish: (c: Caller, id: string, body: unknown) => publish.POST(request(c, "POST", `${base(id)}/publish`, body), params({ id })).then(answer),
  verdict: (c: Caller, id: string, body: unknown) => verdicts.POST(request(c, "POST", `${base(id)}/verdicts`, body), params({ id })).then(answer),
  ask: (c: Caller, id: string, body: unknown) => requests.POST(request(c, "POST", `${base(id)}/review-requests`, body), params({ id })).then(answer),
  thread: (c: Caller, id: string, body: unknown) => threads.POST(request(c, "POST", `${base(id)}/threads`, body), params({ id })).then(answer),
  close: (c: Caller, slug: string, body: unknown) => close.POST(request(c, "POST", `/api/studio/phases/${slug}/close`, body), params({ slug })).then(answer),
  hooks: (c: Caller) => hooks.GET(request(c, "GET", "/api/studio/webhooks"), params({})).then(answer),
  subscribe: (c: Caller, body: unknown) => hooks.POST(request(c, "POST", "/api/studio/webhooks", body), params({})).then(answer),
  unsubscribe: (c: Caller, id: string) => hook.DELETE(request(c, "DELETE", `/api/studio/webhooks/${id}`), params({ id })).then(answer),
};
const git = (...args: string[]) => execFileSync("git", ["--git-dir", f.gitdir, ...args], { encoding: "utf8" }).trim();
const ok = (r: { status: number; body: Json }, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  return r.body;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** create → propose → publish: the note's id. */
async function publishedNote(title: string): Promise<string> {
  const created = ok(await api.create(f.author, { note: noteFields(title) }), 201);
  const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision: created.revision }));
  ok(await api.publish(f.author, created.id, { revision: proposed.revision }));
  return created.id;
}

/** A receiver of this test's own, subscribed through the studio API. */
async function subscribed(answerWith?: Parameters<typeof webhookReceiver>[1], events: string[] = []) {
  const receiver = await webhookReceiver(SECRET, answerWith);
  extraReceivers.push(receiver);
  const added = ok(await api.subscribe(f.author, { url: receiver.url, secret: SECRET, events }), 201);
  return { receiver, id: added.id as string, key: added.key as string };
}

const published = (title: string) => (r: Received) => r.json.type === "note.published" && (r.json.note as Json)?.title === title;

describe("outgoing webhooks", () => {
  it("sends each event of a note's way once, signed, naming the note, the revision, the actor and the public URL", async () => {
    const created = ok(await api.create(f.author, { note: noteFields("Told, not polled") }), 201);
    const id = created.id as string;
    const proposed = ok(await api.transition(f.author, id, { to: "hypothesis", revision: created.revision }));
    const proposedCommit = git("rev-parse", `refs/heads/drafts/${id}`);
    ok(await api.ask(f.author, id, { revision: proposed.revision, reviewers: ["rita"], text: "Does the boundary hold?" }), 201);
    const askedCommit = git("rev-parse", `refs/reviews/${id}`);
    ok(await api.thread(f.reviewer, id, { section: "decision", revision: proposed.revision, text: "Which kernel, @ada?" }), 201);
    ok(await api.verdict(f.reviewer, id, { verdict: "approve", revision: proposed.revision, summary: "Holds." }), 201);
    ok(await api.publish(f.author, id, { revision: proposed.revision }));
    const publishCommit = git("rev-parse", "refs/heads/main");
    ok(await api.close(f.author, "agent-operations", { noDeltaWhy: "This phase only moved agent tooling; no decision changed here." }));
    const closeCommit = git("rev-parse", "refs/heads/main");

    const got = await envReceiver.waitFor(6);
    expect(got.map((r) => r.json.type)).toEqual([
      "note.status_changed",
      "review.requested",
      "review.comment",
      "review.verdict",
      "note.published",
      "phase.closed",
    ]);
    for (const r of got) {
      expect(r.signed, `${r.json.type} is signed with the secret`).toBe(true);
      expect(r.headers["x-hub-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(r.headers["x-field-notes-event-id"]).toBe(r.json.id);
      expect(r.headers["x-field-notes-event"]).toBe(r.json.type);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(typeof r.json.text).toBe("string");
    }
    expect(new Set(got.map((r) => r.json.id)).size).toBe(6);
    const [changed, asked, comment, verdict, pub, closed] = got.map((r) => r.json as Json);
    expect(changed).toMatchObject({ revision: proposedCommit, from: "draft", to: "hypothesis", actor: { id: "ada" }, note: { id, title: "Told, not polled" } });
    expect(asked).toMatchObject({
      revision: askedCommit,
      reviewers: [{ id: "rita", name: "rita" }],
      note_revision: proposed.revision,
      message: "Does the boundary hold?",
    });
    expect(comment).toMatchObject({
      actor: { id: "rita" },
      section: "decision",
      excerpt: "Which kernel, @ada?",
      review_url: expect.stringMatching(/#thread-[0-9a-f]{12}$/),
    });
    expect(verdict).toMatchObject({ actor: { id: "rita" }, verdict: "approve", summary: "Holds." });
    expect(pub).toMatchObject({
      revision: publishCommit,
      actor: { id: "ada", name: "ada" },
      url: `${BASE}/notes/${id}`,
      first_time: true,
      note: { id, status: "hypothesis" },
    });
    expect(pub.text).toBe(`ada published ${id} “Told, not polled” as hypothesis: ${BASE}/notes/${id}`);
    expect(closed).toMatchObject({ revision: closeCommit, url: `${BASE}/phases/agent-operations`, phase: { slug: "agent-operations" }, note: null });

    // Once each: nothing arrives again while the lanes have time to (wrongly) repeat themselves.
    await sleep(3 * BACKOFF.maxMs);
    expect(envReceiver.received).toHaveLength(6);
    const log = ok(await api.hooks(f.author));
    expect(log.receivers).toEqual([expect.objectContaining({ source: "environment", address: "http://127.0.0.1:" + new URL(envReceiver.url).port + "/…" })]);
    expect(log.deliveries).toHaveLength(6);
    expect(log.deliveries.every((d: Json) => d.status === "delivered" && d.attempts === 1 && d.lastStatus === 200)).toBe(true);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    expect((await api.hooks(f.reviewer)).status).toBe(403);
  });

  it("loses nothing while the receiver is down across a restart of the app: both publishes arrive, in order", async () => {
    const { receiver, id: subscription, key } = await subscribed(undefined, ["note.published"]);
    await receiver.stop();
    const first = await publishedNote("Published while the receiver was down, first");
    const second = await publishedNote("Published while the receiver was down, second");
    // The lane tried and failed, and says why.
    await expect
      .poll(async () => ok(await api.hooks(f.author)).deliveries.filter((d: Json) => d.receiver.key === key && d.attempts > 0), { timeout: 10_000 })
      .not.toHaveLength(0);
    const failing = ok(await api.hooks(f.author)).deliveries.filter((d: Json) => d.receiver.key === key);
    expect(failing.map((d: Json) => d.status)).toEqual(["pending", "pending"]);
    expect(failing.find((d: Json) => d.attempts > 0).lastError).toMatch(/could not be reached: ECONNREFUSED/);

    // The app stops: what it queued is on disk, pending.
    await closeWebhookOutbox();
    const onDisk = fs
      .readdirSync(path.join(f.dataDir, "webhooks", "deliveries"))
      .map((n) => JSON.parse(fs.readFileSync(path.join(f.dataDir, "webhooks", "deliveries", n), "utf8")))
      .filter((d) => d.receiver.key === key);
    expect(onDisk.map((d) => d.status)).toEqual(["pending", "pending"]);

    // A new app over the same DATA_DIR, then the receiver comes back on its address.
    await openWebhookOutbox({ backoff: BACKOFF, timeoutMs: TIMEOUT_MS });
    await receiver.start();
    const got = await receiver.waitFor(2);
    expect(got.map((r) => (r.json.note as Json).id)).toEqual([first, second]);
    expect(got.every((r) => r.signed)).toBe(true);
    await sleep(2 * BACKOFF.maxMs);
    expect(receiver.received).toHaveLength(2);
    ok(await api.unsubscribe(f.author, subscription));
  });

  it("retries a receiver that answers 500 with growing waits, and the delivery log says so", async () => {
    const FAILURES = 3;
    const { receiver, id: subscription, key } = await subscribed((n) => (n <= FAILURES ? 500 : 200), ["note.published"]);
    const id = await publishedNote("Published to a failing receiver");

    // While it fails, the log shows the answer and the attempts.
    await receiver.waitFor(2);
    const failing = ok(await api.hooks(f.author)).deliveries.find((d: Json) => d.receiver.key === key);
    expect(failing).toMatchObject({ status: "pending", lastStatus: 500, lastError: "answered 500: receiver says no", event: { type: "note.published" } });
    expect(failing.attempts).toBeGreaterThanOrEqual(1);

    const got = await receiver.waitFor(FAILURES + 1);
    // The same event each time (one id: the receiver can tell a retry from a new event).
    expect(new Set(got.map((r) => r.json.id)).size).toBe(1);
    expect((got[0]!.json.note as Json).id).toBe(id);
    // Each wait at least the backoff's (300 ms, 600 ms, 1,200 ms): a lower bound, which a slow machine cannot break.
    const waits = got.slice(1).map((r, i) => r.at - got[i]!.at);
    waits.forEach((w, i) => expect(w, `wait ${i + 1}`).toBeGreaterThanOrEqual(retryDelay(i + 1, BACKOFF) - 20));
    await expect
      .poll(async () => ok(await api.hooks(f.author)).deliveries.find((d: Json) => d.receiver.key === key).status, { timeout: 5_000 })
      .toBe("delivered");
    const done = ok(await api.hooks(f.author)).deliveries.find((d: Json) => d.receiver.key === key);
    expect(done).toMatchObject({ attempts: FAILURES + 1, lastStatus: 200, lastError: null });
    ok(await api.unsubscribe(f.author, subscription));
  });

  it("answers saves and publishes at once while a receiver never answers", async () => {
    const { receiver, id: subscription, key } = await subscribed(() => "hang");
    const created = ok(await api.create(f.author, { note: noteFields("Saved while a receiver hangs") }), 201);
    let revision = created.revision as string;
    const timings: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const started = performance.now();
      const saved = ok(await api.save(f.author, created.id, { revision, note: noteFields("Saved while a receiver hangs", { summary: `Save number ${i}.` }) }));
      timings.push(performance.now() - started);
      revision = saved.revision;
    }
    const proposed = ok(await api.transition(f.author, created.id, { to: "hypothesis", revision }));
    await receiver.waitFor(1); // the receiver holds the status change's delivery open from here on
    for (const run of [
      () => api.save(f.author, created.id, { revision: proposed.revision, note: noteFields("Saved while a receiver hangs", { summary: "After." }) }),
      () => api.read(f.author, created.id).then((r) => api.publish(f.author, created.id, { revision: r.body.revision })),
    ]) {
      const started = performance.now();
      ok(await run());
      timings.push(performance.now() - started);
    }
    // Each write answered well within the receiver's timeout (4 s), which it never gets an answer inside.
    expect(Math.max(...timings)).toBeLessThan(2_000);
    await expect
      .poll(
        async () => ok(await api.hooks(f.author)).deliveries.find((d: Json) => d.receiver.key === key && d.event.type === "note.status_changed")?.lastError,
        {
          timeout: 10_000,
        },
      )
      .toBe("no answer within 4 s");
    ok(await api.unsubscribe(f.author, subscription));
    expect((await api.unsubscribe(f.author, subscription)).status).toBe(404);
  });

  it("refuses a receiver that is not an http(s) URL or has a short secret, saying where", async () => {
    const bad = await api.subscribe(f.author, { url: "ftp://example.org/hook", secret: "short" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.where).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: "url", message: expect.stringMatching(/not an http\(s\) URL/) }),
        expect.objectContaining({ field: "secret", message: expect.stringMatching(/at least 16 characters/) }),
      ]),
    );
    expect((await api.subscribe(f.reviewer, { url: "https://example.org/hook", secret: SECRET })).status).toBe(403);
    expect((await api.unsubscribe(f.author, "nope")).status).toBe(404);
  });
});
